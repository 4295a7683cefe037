/// The single seam between `rates` and the network: one request in, one
/// response out.
///
/// The live value is ``live(timeoutSeconds:)``; tests pass a closure instead:
///
/// ```swift
/// let transport = HTTPTransport { request in
///   #expect(request.url.path == "/api/v3/simple/price")
///   #expect(request.headers["x-cg-demo-api-key"] == "CG-test")
///   return HTTPResponse(status: 200, body: Data(#"{"bitcoin":{"eur":61234}}"#.utf8))
/// }
/// ```
///
/// A non-2xx status (a 3xx included: redirects are never followed) is a
/// normal response, not an error; only failures to get a whole response
/// throw, as ``HTTPError``.
public struct HTTPTransport: Sendable {
  /// Sends `request` and returns the response.
  public var send: @Sendable (_ request: HTTPRequest) async throws -> HTTPResponse

  /// Creates a transport from a closure.
  public init(send: @escaping @Sendable (_ request: HTTPRequest) async throws -> HTTPResponse) {
    self.send = send
  }
}

/// Why a request got no usable HTTP response.
public enum HTTPError: Error, Equatable, Sendable {
  /// The request did not finish within its time (seconds): slow to connect,
  /// to answer, or a body still arriving at the deadline.
  case timedOut(host: String, seconds: Int)
  /// Nothing listens at the address, or it refused the connection.
  case cannotConnect(host: String)
  /// The host name did not resolve (typical when offline).
  case cannotFindHost(host: String)
  /// The connection dropped before the whole response arrived.
  case connectionLost(host: String)
  /// The request was cancelled.
  case cancelled
  /// The response (headers, or the body after decompression) passed `limit` bytes.
  case bodyTooLarge(host: String, limit: Int)
  /// The TLS handshake or the server's certificate failed.
  case secureConnectionFailed(host: String)
  /// The request cannot be sent as it is (a bad URL, a line break in a header).
  case invalidRequest(detail: String)
  /// No HTTP client could be loaded (the system's libcurl is missing).
  case unavailable(detail: String)
  /// Any other transport failure, with the underlying library's code.
  case other(host: String, code: Int)

  /// Whether trying again might help.
  public var isTransient: Bool {
    switch self {
    case .timedOut, .connectionLost, .cannotConnect: return true
    case .cannotFindHost, .cancelled, .bodyTooLarge, .secureConnectionFailed, .invalidRequest,
      .unavailable, .other:
      return false
    }
  }
}

extension HTTPTransport {
  /// The live transport: libcurl's easy interface on every platform, loaded
  /// on the first request (``CurlLibrary``).
  ///
  /// It refuses redirects, keeps no cookies, cache and files, and ends each
  /// request within `timeoutSeconds` from start to last body byte (or the
  /// request's own ``HTTPRequest/deadline`` when sooner).
  ///
  /// - Parameter timeoutSeconds: the whole time one request may take, at least 1.
  public static func live(timeoutSeconds: Int) -> HTTPTransport {
    .curl(timeoutSeconds: timeoutSeconds)
  }

  /// This transport with every request ending by `deadline` at the latest:
  /// an overall budget for a command, honoured by ``retrying(_:sleep:random:)``
  /// (no retry or wait past it) and by the live transports (the request's
  /// time is cut to what is left).
  public func bounded(by deadline: ContinuousClock.Instant) -> HTTPTransport {
    let base = self
    return HTTPTransport { request in
      var request = request
      request.deadline = min(request.deadline ?? deadline, deadline)
      return try await base.send(request)
    }
  }
}

/// The time one request may take: the transport's timeout, cut short by the
/// request's deadline.
struct RequestBudget: Equatable {
  /// Milliseconds left, at least 1 (0 means the deadline has passed).
  let milliseconds: Int
  /// The whole seconds to report in ``HTTPError/timedOut(host:seconds:)``.
  let reportedSeconds: Int

  init(timeoutSeconds: Int, deadline: ContinuousClock.Instant?, now: ContinuousClock.Instant) {
    var milliseconds = min(max(1, timeoutSeconds), 86_400) * 1000
    if let deadline {
      let left = now.duration(to: deadline).components
      let (scaled, overflow) = left.seconds.multipliedReportingOverflow(by: 1000)
      let leftMilliseconds =
        overflow
        ? (left.seconds < 0 ? Int64.min : Int64.max)
        : scaled.addingReportingOverflow(left.attoseconds / 1_000_000_000_000_000).partialValue
      milliseconds = max(0, min(milliseconds, Int(clamping: leftMilliseconds)))
    }
    self.milliseconds = milliseconds
    self.reportedSeconds = max(1, (milliseconds + 999) / 1000)
  }
}
