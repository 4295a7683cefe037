import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The single seam between `rates` and the network: one request in, one
/// response out.
///
/// The live value wraps `URLSession`; tests pass a closure instead:
///
/// ```swift
/// let transport = HTTPTransport { request in
///   let body = Data(#"{"bitcoin":{"eur":61234}}"#.utf8)
///   let response = HTTPURLResponse(
///     url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!
///   return (body, response)
/// }
/// ```
///
/// A non-2xx status is a normal response, not an error; only failures to get
/// a response at all throw, as ``HTTPError``.
public struct HTTPTransport: Sendable {
  /// Sends `request` and returns the body and the response.
  public var send: @Sendable (_ request: URLRequest) async throws -> (Data, HTTPURLResponse)

  /// Creates a transport from a closure.
  public init(send: @escaping @Sendable (_ request: URLRequest) async throws -> (Data, HTTPURLResponse)) {
    self.send = send
  }
}

/// Why a request got no HTTP response.
public enum HTTPError: Error, Equatable, Sendable {
  /// The server did not answer within the timeout (seconds).
  case timedOut(host: String, seconds: Int)
  /// Nothing listens at the address, or it refused the connection.
  case cannotConnect(host: String)
  /// The host name did not resolve (typical when offline).
  case cannotFindHost(host: String)
  /// The connection dropped before the whole response arrived.
  case connectionLost(host: String)
  /// The request was cancelled.
  case cancelled
  /// Any other transport failure, with its `URLError` code.
  case other(host: String, code: Int)

  /// Whether trying again might help.
  public var isTransient: Bool {
    switch self {
    case .timedOut, .connectionLost, .cannotConnect: return true
    case .cannotFindHost, .cancelled, .other: return false
    }
  }
}

extension HTTPTransport {
  /// A transport over an ephemeral `URLSession` with no URL cache, no cookies
  /// and a whole-second timeout (Linux truncates fractions).
  ///
  /// - Parameter timeoutSeconds: the per-request timeout, at least 1.
  ///
  /// The session is created on the first request, so a command answered from
  /// the cache never pays for it.
  public static func urlSession(timeoutSeconds: Int) -> HTTPTransport {
    let seconds = max(1, timeoutSeconds)
    let box = SessionBox(timeoutSeconds: seconds)
    return HTTPTransport { request in
      let session = await box.session()
      var request = request
      request.timeoutInterval = TimeInterval(seconds)
      let host = request.url?.host ?? "?"
      do {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else {
          throw HTTPError.other(host: host, code: URLError.Code.badServerResponse.rawValue)
        }
        return (data, http)
      } catch let error as URLError {
        throw HTTPError(error, host: host, timeoutSeconds: seconds)
      }
    }
  }
}

/// Holds the one `URLSession` of a transport, made when first needed.
actor SessionBox {
  private let timeoutSeconds: Int
  private var made: URLSession?

  init(timeoutSeconds: Int) {
    self.timeoutSeconds = timeoutSeconds
  }

  /// The session: ephemeral, no URL cache, no cookies, whole-second timeouts.
  func session() -> URLSession {
    if let made { return made }
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = TimeInterval(timeoutSeconds)
    configuration.timeoutIntervalForResource = TimeInterval(timeoutSeconds * 3)
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    let session = URLSession(configuration: configuration)
    made = session
    return session
  }
}

extension HTTPError {
  /// Classifies a `URLError` (Linux and macOS report the same codes).
  init(_ error: URLError, host: String, timeoutSeconds: Int) {
    switch error.code {
    case .timedOut: self = .timedOut(host: host, seconds: timeoutSeconds)
    case .cannotConnectToHost, .notConnectedToInternet: self = .cannotConnect(host: host)
    case .cannotFindHost, .dnsLookupFailed: self = .cannotFindHost(host: host)
    // A body cut short of its Content-Length surfaces as `.unknown` (-1) on
    // Linux, a connection closed before any byte as `.badServerResponse`.
    case .networkConnectionLost, .badServerResponse, .cannotParseResponse,
      .zeroByteResource, .unknown:
      self = .connectionLost(host: host)
    case .cancelled: self = .cancelled
    default: self = .other(host: host, code: error.code.rawValue)
    }
  }
}
