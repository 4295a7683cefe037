import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// `provider-pauses.json` is read, changed and written under its lock: sources (or `rates`
/// processes) recording at the same moment all keep their entry (before: a rewrite from a
/// stale read lost the others').
@Suite struct ProviderPausesRaceTests {
  static let now = Date(timeIntervalSince1970: 1_780_000_000)
  let scratch = Scratch()

  @Test func pausesAndSuccessesRecordedAtOnceAreAllKept() async throws {
    let folder = try scratch.folder()
    let writers = 16
    let failures = await runTogether(writers) { index in
      // The lock is taken by polling: 16 writers on two loaded cores can starve one past the
      // commands' 2 s. What is tested is that no entry is lost to a stale read, so the wait
      // here only guards against a hang.
      let pauses = ProviderPauses(cacheFolder: folder, lockTimeout: .seconds(120))
      for round in 0..<5 {
        pauses.pause(key: "p\(index)-\(round)", seconds: 600, now: Self.now)
        pauses.succeeded(key: "s\(index)-\(round)", now: Self.now)
      }
    }
    expect(failures.isEmpty)
    let state = ProviderPauses(cacheFolder: folder).read()
    expectEqual(state.pausedUntil.count, writers * 5, "lost: \(writers * 5 - state.pausedUntil.count)")
    expectEqual(state.lastSuccess.count, writers * 5, "lost: \(writers * 5 - state.lastSuccess.count)")
  }
}
