import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A loopback port where nothing listens, reserved for as long as this value lives: a
/// connection to ``baseURL`` is refused, every time.
///
/// Binding a server and stopping it is not the same: the freed port can be handed to the
/// next test's server at once, and a connection meant to be refused then reaches that
/// server (it did, in a parallel run). This socket is bound without `listen` and without
/// `SO_REUSEADDR`, so the kernel refuses connections to it and gives its port to no one
/// else until ``deinit``.
public final class ClosedPort: Sendable {
  /// `http://127.0.0.1:<port>`, where a connection is refused.
  public let baseURL: URL
  private let descriptor: Int32

  /// Reserves a free loopback port.
  /// - Throws: `LoopbackServerError` when a socket call fails.
  public init() throws {
    let socket = try LoopbackSocket.bound(listening: false)
    descriptor = socket.descriptor
    baseURL = socket.url
  }

  deinit { close(descriptor) }
}
