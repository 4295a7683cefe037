import RatesExpectations
import RatesTestSupport
import Synchronization
import Testing

@testable import RateCore

/// Issue 27, start-up: a fiat command answered from a fresh cache never decodes the ECB
/// snapshot built into `rates`; one that needs it (offline, nothing cached) does.
@Suite struct LazySnapshotTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  final class Counter: Sendable {
    let reads = Atomic(0)
  }

  func service(_ counter: Counter, mode: CacheMode, cache: JSONFileCache) throws -> RateService {
    let server = InProcessServer.fakeAPI()
    let client = FrankfurterClient(
      baseURL: try require(URL(string: "http://fake.test/frankfurter")),
      transport: server.transport())
    let source = PriceSource.frankfurter(
      client: client, now: { fixedNow },
      offlineRates: {
        counter.reads.add(1, ordering: .relaxed)
        return ECBSnapshot.embedded
      }())
    return RateService(
      source: source, cache: cache, mode: mode, now: { fixedNow }, notify: { _ in })
  }

  @Test func aFreshCacheAnswersWithoutTheSnapshot() async throws {
    let directory = try scratch.folder()
    let cache = JSONFileCache(directory: directory)
    let pair = AssetQuote(asset: Asset(symbol: "USD", id: "USD"), quote: "EUR")
    let counter = Counter()
    let first = try service(counter, mode: .normal, cache: cache)
    _ = try await first.quotes(for: [pair])
    _ = try await first.history(of: "GBP", in: "USD", days: 28)
    let warm = try service(counter, mode: .normal, cache: cache)
    let quotes = try await warm.quotes(for: [pair])
    _ = try await warm.history(of: "GBP", in: "USD", days: 28)
    expectEqual(quotes.staleness, nil)
    expectEqual(counter.reads.load(ordering: .relaxed), 0)

    let empty = try scratch.folder()
    defer { try? FileManager.default.removeItem(at: empty) }
    let offline = try service(counter, mode: .offline, cache: JSONFileCache(directory: empty))
    _ = try await offline.quotes(for: [pair])
    expectEqual(counter.reads.load(ordering: .relaxed), 1)
  }
}
