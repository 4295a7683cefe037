/// When and how long to wait before trying a request again.
///
/// Server errors (5xx), timeouts and dropped connections are retried with
/// jittered exponential backoff. A 429 is retried only when the server's
/// `Retry-After` is short; otherwise the 429 response is returned at once so
/// the caller can say "rate limited, retry in N s". Everything is bounded:
/// at most 10 attempts, no single wait over a minute, the waits of one
/// request at most ``maxTotalDelay``, and nothing past the request's
/// ``HTTPRequest/deadline`` (see ``HTTPTransport/bounded(by:)``).
public struct RetryPolicy: Sendable, Equatable {
  /// The most attempts any policy makes.
  public static let attemptCeiling = 10
  /// The longest single wait any policy allows, `Retry-After` included.
  public static let delayCeiling = Duration.seconds(60)

  /// How many times a request is sent at most, the first time included (1 to 10).
  public var maxAttempts: Int
  /// The backoff before the first retry; it doubles for each later one.
  public var baseDelay: Duration
  /// The longest `Retry-After` worth waiting for (at most 60 s).
  public var maxRetryAfter: Duration
  /// The most time all waits of one request may add up to.
  public var maxTotalDelay: Duration

  /// Creates a policy; values outside the ceilings are clamped to them.
  public init(
    maxAttempts: Int = 3, baseDelay: Duration = .milliseconds(500),
    maxRetryAfter: Duration = .seconds(10), maxTotalDelay: Duration = .seconds(15)
  ) {
    self.maxAttempts = min(max(1, maxAttempts), Self.attemptCeiling)
    self.baseDelay = min(max(.zero, baseDelay), Self.delayCeiling)
    self.maxRetryAfter = min(max(.zero, maxRetryAfter), Self.delayCeiling)
    self.maxTotalDelay = max(.zero, maxTotalDelay)
  }

  /// No retries at all.
  public static let none = RetryPolicy(maxAttempts: 1)

  /// The backoff before retry number `retry` (0-based): full jitter over
  /// `baseDelay * 2^retry` (at most a minute), never less than a quarter of it.
  func backoff(retry: Int, random: Double) -> Duration {
    let ceiling = min(baseDelay * (1 << min(max(retry, 0), 16)), Self.delayCeiling)
    let fraction = 0.25 + 0.75 * min(max(random.isNaN ? 1 : random, 0), 1)
    return ceiling * fraction
  }
}

extension HTTPTransport {
  /// Wraps this transport so that transient failures are retried under `policy`.
  ///
  /// A wait that would end past the request's ``HTTPRequest/deadline`` is not
  /// taken: the last response or error is returned instead.
  ///
  /// - Parameters:
  ///   - policy: how often and how long to retry.
  ///   - sleep: waits; injected so tests run without real time.
  ///   - random: a number in 0...1 for jitter; injected for determinism.
  public func retrying(
    _ policy: RetryPolicy,
    sleep: @escaping @Sendable (Duration) async throws -> Void,
    random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
    now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
  ) -> HTTPTransport {
    let base = self
    return HTTPTransport { request in
      var waited = Duration.zero
      var attempt = 0
      while true {
        attempt += 1
        let canRetry = attempt < policy.maxAttempts
        let delay: Duration
        do {
          let response = try await base.send(request)
          guard canRetry, let wait = Self.retryDelay(response, request, policy, attempt, random)
          else {
            return response
          }
          guard fits(wait, waited, policy, request.deadline, now()) else { return response }
          delay = wait
        } catch let error as HTTPError {
          let backoff = policy.backoff(retry: attempt - 1, random: random())
          guard canRetry, error.isTransient, fits(backoff, waited, policy, request.deadline, now())
          else { throw error }
          delay = backoff
        }
        try await sleep(delay)
        waited += delay
      }
    }
  }

  /// How long to wait before retrying after `response`, or `nil` to return it.
  private static func retryDelay(
    _ response: HTTPResponse, _ request: HTTPRequest, _ policy: RetryPolicy, _ attempt: Int,
    _ random: @Sendable () -> Double
  ) -> Duration? {
    if response.status == 429 {
      guard let seconds = RetryAfter.seconds(from: response),
        .seconds(seconds) <= policy.maxRetryAfter
      else { return nil }
      return .seconds(seconds)
    }
    if (500...599).contains(response.status) {
      guard !isFinal(response, request) else { return nil }
      return policy.backoff(retry: attempt - 1, random: random())
    }
    return nil
  }

  /// Whether a 5xx `response` is one that `request` marks as final.
  private static func isFinal(_ response: HTTPResponse, _ request: HTTPRequest) -> Bool {
    guard !request.finalServerErrors.isEmpty else { return false }
    let text = String(decoding: response.body.prefix(200), as: UTF8.self)
      .trimming(.whitespacesAndNewlines)
    return request.finalServerErrors.contains { text.hasPrefix($0) }
  }
}

/// Whether waiting `delay` more keeps within the policy's total and ends
/// before `deadline`.
private func fits(
  _ delay: Duration, _ waited: Duration, _ policy: RetryPolicy,
  _ deadline: ContinuousClock.Instant?, _ now: ContinuousClock.Instant
) -> Bool {
  guard waited + delay <= policy.maxTotalDelay else { return false }
  guard let deadline else { return true }
  return now.advanced(by: delay) < deadline
}
