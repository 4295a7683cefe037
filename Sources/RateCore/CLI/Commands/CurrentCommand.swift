import Foundation

/// `rates current [COIN ...] [--in CUR,...]`: current prices with their
/// 24-hour change.
struct CurrentCommand: RatesCommand {
  static let name = "current"
  static let abstract = "current prices with their 24-hour change"
  static let usage = "rates current [<COIN> ...] [--in <CURRENCY>[,<CURRENCY>...]]"
  static let details = """
    Arguments:
      <COIN>              coin symbols or CoinGecko ids (default: BTC)

    Options:
      --in LIST           currencies, comma-separated or repeated (default: RATES_CURRENCY
                          or USD)

    All coins and currencies come from one request (CoinGecko), and a price fetched less
    than a minute ago is reused from the cache.

    Examples:
      rates current BTC ETH --in EUR,USD
      rates current solana --in GBP
      rates current BTC --json | jq '.quotes[0].rate'
    """

  let coins: [String]
  let currencies: [String]

  init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
    currencies = try CurrencyList.parse(try scanner.options("--in"), default: defaults.currency)
    var coins: [String] = []
    for coin in scanner.positionals() where !coins.contains(where: { $0.lowercased() == coin.lowercased() }) {
      coins.append(coin)
    }
    self.coins = coins.isEmpty ? ["BTC"] : coins
    for coin in self.coins {
      for currency in currencies where coin.uppercased() == currency {
        throw UsageError.invalid(
          "\(currency) in \(currency) is always 1: pick a different currency with --in")
      }
    }
  }

  func run(_ invocation: Invocation) async throws -> ExitCode {
    let result = try await invocation.makeService().quotes(of: coins, in: currencies)
    invocation.report(result.staleness)
    let stale = result.staleness != nil
    if invocation.options.json {
      try invocation.printJSON(
        CurrentDocument(quotes: result.quotes.map { CurrentDocument.Item($0, stale: stale) }))
      return .success
    }
    let style = invocation.style
    var table = TextTable(columns: [
      .init("COIN"), .init("PRICE", alignment: .right), .init(""),
      .init("24H", alignment: .right), .init("UPDATED"),
    ])
    for quote in result.quotes {
      let change = quote.change24hPercent
      table.append([
        TerminalText.sanitize(quote.base),
        RateFormat.number(quote.rate),
        quote.quote,
        change.map { style.change(RateFormat.percent($0), value: $0) } ?? "—",
        quote.updatedAt.map { Self.clock($0, now: invocation.context.now()) } ?? "",
      ])
    }
    var lines = table.render(maxWidth: invocation.terminal.width, ascii: !invocation.terminal.unicode)
    if let staleness = result.staleness {
      lines.append(
        style.yellow(
          "stale: cached \(AgeText.describe(invocation.context.now().timeIntervalSince(staleness.fetchedAt))) ago"))
    }
    lines.append(style.dim("source: \(Providers.displayName(result.quotes.first?.source ?? ""))"))
    invocation.out(lines.joined(separator: "\n"))
    return .success
  }

  /// `14:05 UTC` for today, else `2026-11-20 14:05 UTC`.
  static func clock(_ date: Date, now: Date) -> String {
    let text = ISO8601.format(date)
    let time = String(text.dropFirst(11).prefix(5)) + " UTC"
    return Day(containing: date) == Day(containing: now) ? time : "\(Day(containing: date)) \(time)"
  }
}

/// The `current --json` document. Keys are a stable contract.
struct CurrentDocument: Encodable {
  struct Item: Encodable {
    var base: String
    var quote: String
    var rate: Double
    var change24hPercent: Double?
    var source: String
    var fetchedAt: Date
    var updatedAt: Date?
    var stale: Bool

    init(_ quote: Quote, stale: Bool) {
      base = quote.base
      self.quote = quote.quote
      rate = quote.rate
      change24hPercent = quote.change24hPercent
      source = quote.source
      fetchedAt = quote.fetchedAt
      updatedAt = quote.updatedAt
      self.stale = stale
    }

    enum CodingKeys: String, CodingKey {
      case base, quote, rate, change24hPercent, source, fetchedAt, updatedAt, stale
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(base, forKey: .base)
      try container.encode(quote, forKey: .quote)
      try container.encode(rate, forKey: .rate)
      // Unknown values are an explicit null, so the key is always there.
      try container.encode(change24hPercent, forKey: .change24hPercent)
      try container.encode(source, forKey: .source)
      try container.encode(fetchedAt, forKey: .fetchedAt)
      try container.encode(updatedAt, forKey: .updatedAt)
      try container.encode(stale, forKey: .stale)
    }
  }
  var version = 1
  var quotes: [Item]
}
