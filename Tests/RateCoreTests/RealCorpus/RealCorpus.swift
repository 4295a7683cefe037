import RateCore
import RatesExpectations
import RatesTestSupport
import Testing

/// The real recorded responses under `fixtures/real/<api>/` (see its
/// `MANIFEST.md`), and what `rates` must make of each one.
///
/// Every body is served with its recorded HTTP status through a
/// ``StubTransport`` to the provider's public client, so the status check,
/// the error-body reading and the decoding are all exercised. A body with no
/// entry in ``expectations`` fails the suite: a newly recorded response can
/// never be skipped.
enum RealCorpus {
  /// Every recorded body, as `<api>/<file>`, sorted; the manifest excluded.
  static let files: [String] = {
    let root = Fixtures.url("real")
    var paths: [String] = []
    for api in apis {
      let folder = root.appendingPathComponent(api)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      paths += names.map { "\(api)/\($0)" }
    }
    // Anything else under fixtures/real (a new API folder) must be noticed too; `exchanges/`
    // holds exchange export files for the importers (its own MANIFEST.md), not API bodies.
    let others = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
    paths += others.filter { !(apis + ["MANIFEST.md", "exchanges"]).contains($0) }
    return paths.sorted()
  }()

  /// The API folders under fixtures/real.
  static let apis = ["coingecko", "coindesk", "frankfurter", "coinbase", "kraken", "ecb"]

  static let gecko = URL(string: "https://gecko.test/api/v3")!
  static let desk = URL(string: "https://desk.test/v1/bpi")!
  static let frank = URL(string: "https://frank.test/v1")!
  static let coinbaseURL = URL(string: "https://coinbase.test")!
  static let krakenURL = URL(string: "https://kraken.test")!

  /// A call `rates` makes, through the public client API.
  enum Call: Sendable {
    case simplePrice(ids: [String], currencies: [String])
    case marketChart(id: String, currency: String, days: Int)
    case markets(currency: String)
    case search(String)
    case coinDeskCurrent(String)
    case coinDeskHistory(String, start: String, end: String)
    case latest([String])
    case series([String], start: String, end: String)
    case coinbaseTicker(String, String)
    /// Hourly candles from the given Unix second for one hour.
    case coinbaseCandles(String, String, from: Double)
    case krakenTicker(String, String)
    /// Hourly candles since the given Unix second.
    case krakenOHLC(String, String, since: Double)
    /// The ECB's daily file.
    case ecbDaily
    /// The ECB data API's range of these codes.
    case ecbRange([String], start: String, end: String)

    func run(_ transport: HTTPTransport, key: CoinGeckoClient.APIKey? = nil) async throws -> Answer {
      let coinGecko = CoinGeckoClient(baseURL: RealCorpus.gecko, key: key, transport: transport)
      let coinDesk = CoinDeskClient(baseURL: RealCorpus.desk, transport: transport)
      let frankfurter = FrankfurterClient(baseURL: RealCorpus.frank, transport: transport)
      switch self {
      case .simplePrice(let ids, let currencies):
        return .prices(try await coinGecko.simplePrices(ids: ids, currencies: currencies))
      case .marketChart(let id, let currency, let days):
        return .samples(try await coinGecko.marketChart(id: id, currency: currency, days: days))
      case .markets(let currency):
        return .markets(try await coinGecko.markets(currency: currency))
      case .search(let query):
        return .search(try await coinGecko.search(query))
      case .coinDeskCurrent(let code):
        let answer = try await coinDesk.currentPrice(currency: code)
        return .current(answer.rate, answer.updatedAt)
      case .coinDeskHistory(let code, let start, let end):
        return .points(
          try await coinDesk.historicalCloses(
            currency: code, start: try require(Day(start)), end: try require(Day(end))))
      case .latest(let pairs):
        let answer = try await frankfurter.latest(pairs: pairs.compactMap(CurrencyPairKey.init))
        return .latest(answer.date, answer.rates)
      case .series(let pairs, let start, let end):
        return .series(
          try await frankfurter.timeSeries(
            pairs: pairs.compactMap(CurrencyPairKey.init), start: try require(Day(start)),
            end: try require(Day(end))))
      default:
        return try await runExchange(transport)
      }
    }

    /// The calls to the exchanges (Coinbase, Kraken).
    func runExchange(_ transport: HTTPTransport) async throws -> Answer {
      let coinbase = CoinbaseClient(baseURL: RealCorpus.coinbaseURL, transport: transport)
      let kraken = KrakenClient(baseURL: RealCorpus.krakenURL, transport: transport)
      switch self {
      case .coinbaseTicker(let base, let quote):
        let answer = try await coinbase.ticker(base: base, quote: quote)
        return .current(answer.rate, answer.time)
      case .coinbaseCandles(let base, let quote, let from):
        let start = Date(timeIntervalSince1970: from)
        let answer = try await coinbase.candleWindows(
          base: base, quote: quote, granularity: .hour, from: start, to: start.addingTimeInterval(3600))
        if let failure = answer.failure { throw failure }
        return .samples(answer.samples)
      case .krakenTicker(let base, let quote):
        return .current(try await kraken.ticker(base: base, quote: quote), nil)
      case .krakenOHLC(let base, let quote, let since):
        return .samples(
          try await kraken.ohlc(
            base: base, quote: quote, interval: .hour, since: Date(timeIntervalSince1970: since)))
      default:
        return try await runECB(transport)
      }
    }
  }

  /// What a call returned.
  enum Answer: Sendable {
    case prices([String: [String: CoinGeckoClient.Price]])
    case samples([(Date, Double)])
    case markets([CoinMarket])
    case search([CoinGeckoClient.SearchResult])
    case current(Double, Date?)
    case points([RatePoint])
    case latest(Day, [CurrencyPairKey: Double])
    case series([CurrencyPairKey: [RatePoint]])
  }

  /// What one recorded body must give.
  struct Expectation: Sendable {
    var status: Int
    var headers: [String: String] = [:]
    var call: Call?
    var outcome: Outcome
  }

  enum Outcome: Sendable {
    /// The call succeeds and `check` holds for the answer.
    case decodes(@Sendable (Answer) throws -> Void)
    /// The call fails with exactly this error.
    case fails(ProviderError)
    /// An endpoint `rates` never calls: the body is checked as plain JSON.
    case notCalled(@Sendable (Any) throws -> Void)
  }
}
