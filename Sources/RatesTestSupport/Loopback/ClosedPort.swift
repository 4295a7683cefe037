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
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw LoopbackServerError.socket(call: "socket", errno: errno) }
    var address = sockaddr_in()
    #if canImport(Darwin)
      address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
    #endif
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard ok else {
      let code = errno
      close(fd)
      throw LoopbackServerError.socket(call: "bind", errno: code)
    }
    var components = URLComponents()
    components.scheme = "http"
    components.host = "127.0.0.1"
    components.port = Int(UInt16(bigEndian: address.sin_port))
    guard let url = components.url else {
      close(fd)
      throw LoopbackServerError.socket(call: "url", errno: 0)
    }
    descriptor = fd
    baseURL = url
  }

  deinit { close(descriptor) }
}
