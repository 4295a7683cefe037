import Foundation
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// A ``LiveHomeDriver`` over the fake APIs in process, with real temporary cache and data
/// folders, the test clock, and a switch that takes the network away.
final class HomeDriverFixture: @unchecked Sendable {
  static let secret = "CG-home-driver-secret-key"

  let clock = TestClock()
  let server: InProcessServer
  let data: URL
  let cache: URL
  /// Holds `data` and `cache`, removed with the fixture.
  private let home: TemporaryDirectory
  private let lock = NSLock()
  private var offlineNow = false
  private let exchanges: Bool

  /// A fixture whose fakes' replies pass through `adjust` (given the request and the reply).
  /// With `exchanges`, the coin chain's Coinbase and Kraken are configured too.
  init(
    prices: [String: [String: Double]] = FakeCoinGecko.pricesWithCryptoQuotes,
    exchanges: Bool = false,
    adjust: @escaping @Sendable (RecordedRequest, LoopbackReply) -> LoopbackReply = { $1 }
  ) throws {
    self.exchanges = exchanges
    let clock = self.clock
    let fake = FakeAPIs.handler(now: { clock.now }, prices: prices)
    server = InProcessServer(clock: clock) { request in adjust(request, fake(request)) }
    home = try TemporaryDirectory()
    data = home.url.appendingPathComponent("data")
    cache = home.url.appendingPathComponent("cache")
  }

  /// Whether requests fail as with no network.
  var offline: Bool {
    get { lock.withLock { offlineNow } }
    set { lock.withLock { offlineNow = newValue } }
  }

  var userData: UserData { UserData(directory: data) }

  var driver: LiveHomeDriver { driver(mode: .normal) }

  /// A driver whose desk starts in `mode` (`--offline`: `.offline`).
  func driver(
    mode: CacheMode, sleep: (@Sendable (Duration) async throws -> Void)? = nil
  ) -> LiveHomeDriver {
    let transport = server.transport()
    let desk = RateDesk(
      configuration: RateDesk.Configuration(
        coinGeckoURL: URL(string: "https://api.coingecko.com/api/v3")!,
        coinGeckoKey: .demo(Self.secret),
        coinDeskURL: URL(string: "https://api.coindesk.com/v1/bpi")!,
        frankfurterURL: URL(string: "https://api.frankfurter.dev/v1")!,
        coinbaseURL: exchanges ? CoinbaseClient.publicBaseURL : nil,
        krakenURL: exchanges ? KrakenClient.publicBaseURL : nil, forcedProvider: nil,
        cacheDirectory: cache, mode: mode),
      transport: { [self] _ in
        HTTPTransport { request in
          if self.offline { throw HTTPError.cannotConnect(host: request.url.host ?? "?") }
          return try await transport.send(request)
        }
      }, now: { [clock] in clock.now }, notify: { _ in })
    return LiveHomeDriver(
      desk: desk, userData: userData, keySetup: nil,
      redaction: Redaction(secrets: [Self.secret]),
      sleep: sleep ?? { [clock] in try await clock.sleep($0) })
  }

  /// The events one effect sends.
  func run(_ effect: HomeEffect, driver: LiveHomeDriver? = nil) async -> [HomeEvent] {
    let events = Recorder<HomeEvent>()
    await (driver ?? self.driver).perform(effect) { events.append($0) }
    return events.all
  }

  /// Requests to CoinGecko's and Frankfurter's paths since `start`.
  func requests(since start: Int = 0) -> [RecordedRequest] { Array(server.requests.dropFirst(start)) }

  func coin(_ id: String, _ symbol: String, _ name: String? = nil) -> FavoriteCoin {
    FavoriteCoin(id: id, symbol: symbol, name: name, addedAt: fixedNow)
  }
}

extension [HomeEvent] {
  var boards: [HomeBoard] {
    compactMap { if case .board(let board) = $0 { return board } else { return nil } }
  }

  var statuses: [HomeStatus] {
    compactMap { if case .status(let status) = $0 { return status } else { return nil } }
  }

  var lists: [HomeLists] {
    compactMap { if case .lists(let lists) = $0 { return lists } else { return nil } }
  }

  /// The reasons of the changes sent back as not saved.
  var notSaved: [String] {
    compactMap { if case .notSaved(_, let reason) = $0 { return reason } else { return nil } }
  }

  var details: [HomeDetail] {
    compactMap { if case .detail(let detail) = $0 { return detail } else { return nil } }
  }

  var searches: [(hits: [HomeSearchHit], remote: Bool)] {
    compactMap {
      if case .searchResults(_, let hits, let remote) = $0 { return (hits, remote) } else { return nil }
    }
  }
}

extension HomeDriverFixture {
  /// A fixture whose first board met CoinGecko's 429 (`Retry-After: 30`), the limit lifted
  /// since and 10 s gone by: the pause it asked for has 20 s left. With the driver that
  /// loaded the board, which holds the pause.
  static func tenSecondsIntoARateLimit() async throws -> (HomeDriverFixture, LiveHomeDriver) {
    let limited = Flag()
    limited.value = true
    let fixture = try HomeDriverFixture { _, reply in
      limited.value ? .text("Throttled", status: 429, headers: ["Retry-After": "30"]) : reply
    }
    let driver = fixture.driver
    _ = await fixture.run(.loadBoard(currency: "USD", refresh: false), driver: driver)
    limited.value = false
    fixture.clock.advance(by: 10)
    return (fixture, driver)
  }
}
