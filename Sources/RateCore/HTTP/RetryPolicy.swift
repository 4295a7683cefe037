import Foundation

/// When and how long to wait before trying a request again.
///
/// Server errors (5xx), timeouts and dropped connections are retried with
/// jittered exponential backoff. A 429 is retried only when the server's
/// `Retry-After` is short; otherwise the 429 response is returned at once so
/// the caller can say "rate limited, retry in N s". The total time spent
/// waiting is bounded by ``maxTotalDelay``.
public struct RetryPolicy: Sendable, Equatable {
  /// How many times a request is sent at most, the first time included.
  public var maxAttempts: Int
  /// The backoff before the first retry; it doubles for each later one.
  public var baseDelay: Duration
  /// The longest `Retry-After` worth waiting for.
  public var maxRetryAfter: Duration
  /// The most time all waits of one request may add up to.
  public var maxTotalDelay: Duration

  /// Creates a policy.
  public init(
    maxAttempts: Int = 3, baseDelay: Duration = .milliseconds(500),
    maxRetryAfter: Duration = .seconds(10), maxTotalDelay: Duration = .seconds(15)
  ) {
    self.maxAttempts = maxAttempts
    self.baseDelay = baseDelay
    self.maxRetryAfter = maxRetryAfter
    self.maxTotalDelay = maxTotalDelay
  }

  /// No retries at all.
  public static let none = RetryPolicy(maxAttempts: 1)

  /// The backoff before retry number `retry` (0-based): full jitter over
  /// `baseDelay * 2^retry`, never less than a quarter of it.
  func backoff(retry: Int, random: Double) -> Duration {
    let ceiling = baseDelay * (1 << min(retry, 16))
    let fraction = 0.25 + 0.75 * min(max(random, 0), 1)
    return ceiling * fraction
  }
}

extension HTTPTransport {
  /// Wraps this transport so that transient failures are retried under `policy`.
  ///
  /// - Parameters:
  ///   - policy: how often and how long to retry.
  ///   - sleep: waits; injected so tests run without real time.
  ///   - random: a number in 0...1 for jitter; injected for determinism.
  public func retrying(
    _ policy: RetryPolicy,
    sleep: @escaping @Sendable (Duration) async throws -> Void,
    random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
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
          let status = response.status
          if status == 429 {
            guard canRetry, let seconds = RetryAfter.seconds(from: response),
              .seconds(seconds) <= policy.maxRetryAfter
            else { return response }
            delay = .seconds(seconds)
          } else if (500...599).contains(status) && canRetry {
            delay = policy.backoff(retry: attempt - 1, random: random())
          } else {
            return response
          }
          guard waited + delay <= policy.maxTotalDelay else { return response }
        } catch let error as HTTPError {
          let backoff = policy.backoff(retry: attempt - 1, random: random())
          guard canRetry, error.isTransient, waited + backoff <= policy.maxTotalDelay else {
            throw error
          }
          delay = backoff
        }
        try await sleep(delay)
        waited += delay
      }
    }
  }
}

/// Reads the `Retry-After` header.
enum RetryAfter {
  /// The delay in whole seconds, from either the delta-seconds form or an
  /// HTTP date; `nil` when absent or unreadable.
  static func seconds(from response: HTTPResponse, now: Date = Date()) -> Int? {
    guard let value = response.headers["Retry-After"]?
      .trimmingCharacters(in: .whitespaces), !value.isEmpty
    else { return nil }
    if let seconds = Int(value) { return max(0, seconds) }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    guard let date = formatter.date(from: value) else { return nil }
    return max(0, Int(date.timeIntervalSince(now).rounded(.up)))
  }
}
