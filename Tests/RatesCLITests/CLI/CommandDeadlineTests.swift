import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// Every request of a one-shot command carries the command's deadline (one
/// timeout plus the retry budget), so no server can keep it alive longer;
/// durations far off never trap the age text.
@Suite struct CommandDeadlineTests {
  /// A context whose every request records its deadline and fails to connect (3 s timeout).
  static func context(home: URL, deadlines: Recorder<ContinuousClock.Instant?>) -> CommandContext {
    CommandContext(
      environment: ["HOME": home.path, "RATES_TIMEOUT": "3"], now: { fixedNow }, sleep: { _ in },
      makeTransport: { _ in
        HTTPTransport { request in
          deadlines.append(request.deadline)
          throw HTTPError.cannotConnect(host: "nowhere")
        }
      },
      writeOut: { _ in }, writeErr: { _ in },
      terminal: { noColor, ascii in
        TerminalCapabilities.decide(
          isTTY: false, windowWidth: nil, environment: [:], noColorFlag: noColor, asciiFlag: ascii)
      })
  }

  /// The deadline and the retries' check of it run on the context's monotonic clock: a
  /// clock that stood still 1,000 s ago still leaves every retry its time (on the real
  /// clock, none would fit), so a busy machine cannot cut a test's retries short.
  @Test func theDeadlineRunsOnTheContextsClock() async throws {
    let deadlines = Recorder<ContinuousClock.Instant?>()
    let stopped = ContinuousClock.now - .seconds(1_000)
    let scratch = try TemporaryDirectory()
    var context = Self.context(home: scratch.url, deadlines: deadlines)
    context.monotonicNow = { stopped }
    _ = await RatesCLI.run(["current", "BTC"], context: context)
    expectEqual(
      deadlines.count, SourceChain.coinOrder.count - 1 + RetryPolicy().maxAttempts,
      "one attempt at each coin source with another behind it, every attempt at the last")
    expect(deadlines.all.allSatisfy { $0 == stopped + .seconds(18) })
  }

  @Test func requestsCarryTheCommandDeadline() async throws {
    let deadlines = Recorder<ContinuousClock.Instant?>()
    let before = ContinuousClock.now
    let scratch = try TemporaryDirectory()
    let context = Self.context(home: scratch.url, deadlines: deadlines)
    _ = await RatesCLI.run(["current", "BTC"], context: context)
    let after = ContinuousClock.now
    expect(!deadlines.all.isEmpty)
    for deadline in deadlines.all {
      let deadline = try require(deadline)
      expect(deadline >= before + .seconds(18) && deadline <= after + .seconds(18))
    }
  }

  @Test func ageTextNeverTraps() {
    expectEqual(AgeText.describe(.infinity), "0 s")
    expectEqual(AgeText.describe(-.infinity), "0 s")
    expectEqual(AgeText.describe(.nan), "0 s")
    expectEqual(AgeText.describe(1e300), "\(1_000_000_000_000 / 86_400) days")
    expectEqual(AgeText.describe(-5), "0 s")
  }
}
