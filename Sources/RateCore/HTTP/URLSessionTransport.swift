// The URLSession transport: the live one on Apple platforms. On Linux it is
// compiled only with `-DRATES_URLSESSION_TRANSPORT` (to measure it against
// libcurl, see scripts/transport-cpu.sh), so that a normal Linux build of
// `rates` never links FoundationNetworking.
#if canImport(Darwin) || RATES_URLSESSION_TRANSPORT
  import Foundation

  #if canImport(FoundationNetworking)
    import FoundationNetworking
  #endif

  extension HTTPTransport {
    /// A transport over one ephemeral `URLSession`, made on the first request:
    /// no URL cache, no cookies, redirects refused (a 3xx comes back as the
    /// response), whole-second timeouts (Linux truncates fractions).
    ///
    /// The request timeout and the resource timeout are both the request's
    /// budget; Apple platforms enforce the resource timeout as a total
    /// deadline, Linux does not. The body limit is checked once the body is in,
    /// so it bounds what callers see, not what URLSession buffers.
    static func urlSession(timeoutSeconds: Int) -> HTTPTransport {
      let seconds = min(max(1, timeoutSeconds), 86_400)
      let box = SessionBox(timeoutSeconds: seconds)
      return HTTPTransport { request in
        let budget = RequestBudget(
          timeoutSeconds: seconds, deadline: request.deadline, now: .now)
        let host = request.host
        guard budget.milliseconds > 0 else {
          throw HTTPError.timedOut(host: host, seconds: budget.reportedSeconds)
        }
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = TimeInterval(budget.reportedSeconds)
        for (name, value) in request.headers.fields {
          urlRequest.addValue(value, forHTTPHeaderField: name)
        }
        let session = await box.session()
        do {
          let (data, response) = try await session.data(for: urlRequest)
          guard let http = response as? HTTPURLResponse else {
            throw HTTPError.other(host: host, code: URLError.Code.badServerResponse.rawValue)
          }
          guard data.count <= request.maxBodyBytes else {
            throw HTTPError.bodyTooLarge(host: host, limit: request.maxBodyBytes)
          }
          var headers = HTTPHeaders()
          for (name, value) in http.allHeaderFields {
            headers.append(name: String(describing: name), value: String(describing: value))
          }
          return HTTPResponse(status: http.statusCode, headers: headers, body: data)
        } catch let error as URLError {
          throw HTTPError(error, host: host, timeoutSeconds: budget.reportedSeconds)
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

    /// The session: ephemeral, no URL cache, no cookies, redirects refused.
    func session() -> URLSession {
      if let made { return made }
      let configuration = URLSessionConfiguration.ephemeral
      configuration.timeoutIntervalForRequest = TimeInterval(timeoutSeconds)
      configuration.timeoutIntervalForResource = TimeInterval(timeoutSeconds)
      configuration.urlCache = nil
      configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
      configuration.httpCookieStorage = nil
      configuration.httpShouldSetCookies = false
      let session = URLSession(
        configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
      made = session
      return session
    }
  }

  /// A stateless session delegate that refuses every redirect, so API-key
  /// headers never travel to whatever host a `Location` names. (A per-task
  /// delegate is ignored on Linux; this must be the session's.)
  final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    #if canImport(Darwin)
      func urlSession(
        _ session: URLSession, task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest
      ) async -> URLRequest? {
        nil
      }
    #else
      func urlSession(
        _ session: URLSession, task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
      ) {
        completionHandler(nil)
      }
    #endif
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
      case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
        .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
        self = .secureConnectionFailed(host: host)
      case .cancelled: self = .cancelled
      default: self = .other(host: host, code: error.code.rawValue)
      }
    }
  }
#endif
