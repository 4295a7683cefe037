import Foundation
import RateCore

/// The in-process twin of ``LoopbackServer``: the same handlers and replies,
/// served through an `HTTPTransport` instead of a socket, so CLI tests run
/// without threads, ports or real time.
///
/// Requests to the real API hosts are routed to the fake's layout, so commands
/// need no `RATES_*_URL` override: `https://api.frankfurter.dev/v1/latest` is
/// recorded and handled as `/frankfurter/latest`, Coinbase Exchange's and
/// Kraken's paths under `/coinbase` and `/kraken`; CoinGecko (`/api/v3/…`, both
/// hosts) and CoinDesk (`/v1/bpi/…`) keep their paths. Any other host keeps
/// its path too, so a loopback-style base URL works as well.
///
/// Replies that need a socket are simulated on the ``TestClock``:
/// - `.delayed(seconds:)` advances the clock by the delay, or by the request
///   timeout and throws `HTTPError.timedOut` when the delay is at least the timeout;
/// - `.dropConnection` and `.truncated` throw `HTTPError.connectionLost`, which
///   is what the live transport reports for them.
///
/// ```swift
/// let clock = TestClock()
/// let api = InProcessServer(clock: clock, handler: FakeAPIs.handler(now: { clock.now }))
/// let cli = try CLIHarness(server: api)
/// ```
public final class InProcessServer: @unchecked Sendable {
  /// The clock delays are simulated on.
  public let clock: TestClock
  private let handler: @Sendable (RecordedRequest) -> LoopbackReply
  private let recorded = Recorder<RecordedRequest>()
  private let lock = NSLock()

  /// A server answering with `handler`, its delays on `clock`.
  public init(
    clock: TestClock = TestClock(), handler: @escaping @Sendable (RecordedRequest) -> LoopbackReply
  ) {
    self.clock = clock
    self.handler = handler
  }

  /// The fake APIs (``FakeAPIs``: CoinGecko, CoinDesk, Frankfurter, Coinbase, Kraken) at `clock`'s time.
  public static func fakeAPI(clock: TestClock = TestClock()) -> InProcessServer {
    InProcessServer(clock: clock, handler: FakeAPIs.handler(now: { clock.now }))
  }

  /// All requests received so far, in arrival order.
  public var requests: [RecordedRequest] { recorded.all }
  /// How many requests were received so far.
  public var requestCount: Int { recorded.count }

  /// A transport to this server with a per-request timeout of `timeoutSeconds`.
  public func transport(timeoutSeconds: Int = 10) -> HTTPTransport {
    HTTPTransport { [self] request in
      let host = request.url.host ?? "?"
      let recordedRequest = record(request)
      return try await respond(
        to: request, with: handler(recordedRequest), host: host, timeout: max(1, timeoutSeconds))
    }
  }

  /// Records `request` in the fake's path layout, with lower-cased header names.
  private func record(_ request: HTTPRequest) -> RecordedRequest {
    let target = Self.target(of: request)
    var headers: [String: String] = [:]
    for field in request.headers.fields { headers[field.name] = field.value }
    if let host = request.url.host {
      headers["Host"] = request.url.port.map { "\(host):\($0)" } ?? host
    }
    return lock.withLock {
      let recordedRequest = RecordedRequest(
        index: recorded.count, method: request.method, target: target, headers: headers)
      recorded.append(recordedRequest)
      return recordedRequest
    }
  }

  /// The request target (path and query, still percent-encoded), with the real
  /// Frankfurter host's `/v1` mapped to the fake's `/frankfurter`.
  static func target(of request: HTTPRequest) -> String {
    let url = request.url
    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    else { return "/" }
    var path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
    if url.host == FrankfurterClient.defaultBaseURL?.host, path.hasPrefix("/v1/") {
      path = "/frankfurter/" + path.dropFirst("/v1/".count)
    } else if url.host == CoinbaseClient.publicBaseURL?.host {
      path = "/coinbase" + path
    } else if url.host == KrakenClient.publicBaseURL?.host {
      path = "/kraken" + path
    }
    if [ECBClient.dailyFileBaseURL?.host, ECBClient.dataAPIBaseURL?.host].contains(url.host) {
      path = "/ecb" + path
    }
    return components.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
  }

  private func respond(
    to request: HTTPRequest, with reply: LoopbackReply, host: String, timeout: Int
  ) async throws -> HTTPResponse {
    switch reply {
    case .response(let status, let headers, let body):
      return HTTPResponse(
        status: status,
        headers: HTTPHeaders(headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }),
        body: request.method == "HEAD" ? Data() : body)
    case .delayed(let seconds, let inner):
      guard seconds < Double(timeout) else {
        clock.advance(by: Double(timeout))
        throw HTTPError.timedOut(host: host, seconds: timeout)
      }
      clock.advance(by: seconds)
      return try await respond(to: request, with: inner, host: host, timeout: timeout)
    case .dropConnection, .truncated, .trickle, .endlessChunked:
      throw HTTPError.connectionLost(host: host)
    }
  }
}
