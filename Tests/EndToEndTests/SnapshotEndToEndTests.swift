import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// The ECB snapshot embedded in the real binary: with every provider
/// unreachable (a closed loopback port) and an empty cache, a dated fiat
/// conversion still answers, from the snapshot, marked as such.
@Suite struct SnapshotEndToEndTests {
  @Test func anOfflineConversionOfAnOldDayComesFromTheEmbeddedSnapshot() async throws {
    let snapshot = try require(ECBSnapshot.embedded)
    // A reserved port where nothing listens (a stopped server's port could be reused by
    // another test's server meanwhile, which then answered: it did, once).
    let closed = try ClosedPort()
    let result = try await BinaryRunner(server: closed.baseURL)
      .run(["convert", "100", "USD", "EUR", "--date", "2015-06-01", "--json"])
    withExtendedLifetime(closed) {}
    expectEqual(result.status, 0, "\(result.stderr)")
    let conversion = try require((try result.json()["conversions"] as? [[String: Any]])?.first)
    // The ECB's row of 2015-06-01: 1 EUR = 1.0944 USD.
    let rate = try require(conversion["rate"] as? Double)
    expectEqual(rate, 0.913_742_690_1)  // 1 / 1.0944 crossed through the euro, to 10 significant digits
    expectEqual(conversion["rateDate"] as? String, "2015-06-01")
    expectEqual(conversion["source"] as? String, "ECB snapshot to \(snapshot.lastDay)")
    expectEqual(conversion["stale"] as? Bool, true)
    expectContains(result.stderr, "which end on \(snapshot.lastDay)")
  }
}
