import RateCore

/// `rates info <coin>`: one coin's market data and recent history.
struct InfoCommand: RatesCommand {
  static let name = "info"
  static let abstract = "a coin's market data, all-time high and low, supply and history"
  struct Declared: Declarations {
    let coinArgument = Argument.required(
      "COIN", help: "a coin symbol or CoinGecko id", completion: .local([.coins]))
    let currency = Option.option(
      "--in", value: "CURRENCY", help: "the currency (default: RATES_CURRENCY or USD)",
      completion: .local([.currencies]))
    let days = Option.integer("--days", value: "N", in: 1...365, default: 30) {
      "the history shown as a sparkline, \($0.rangeAndDefault))"
    }
  }
  static let discussion = """
    Shows price, 24-hour change, market cap and rank, 24-hour volume, high and low,
    all-time high and low with their dates and the distance from them, circulating, total
    and maximum supply ('—' where CoinGecko has none), and when it was last updated.
    Two requests: one for market data, one for the history.
    """
  static let examples = [
    "rates info BTC --in EUR",
    "rates info solana --days 90",
    "rates info ETH --json | jq '.market.allTimeHigh'",
  ]

  let coin: String
  let currency: String
  let days: Int

  init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
    let currency = try scanner.read(Self.declared.currency) ?? defaults.currency
    guard CurrencyCode.isValid(currency, shape: .quote) else {
      throw UsageError.invalidValue(option: "--in", value: currency, expected: "a currency code such as EUR")
    }
    self.currency = CurrencyCode(currency).text
    days = try scanner.read(Self.declared.days)
    let coin = try scanner.read(Self.declared.coinArgument)
    try PairArguments.validate(base: coin, quote: self.currency)
    self.coin = coin
  }

  struct Document: Encodable {
    var id: String
    var symbol: String
    var name: String
    @NullEncoded var rank: Int?
    var quote: QuoteDocument
    var market: Market
    var history: HistoryDocument
  }

  /// The market figures of `info --json`, in the quote currency; changes are
  /// labelled with their period as everywhere.
  struct Market: Encodable {
    @NullEncoded var marketCap: Double?
    @NullEncoded var totalVolume: Double?
    @NullEncoded var high24h: Double?
    @NullEncoded var low24h: Double?
    @NullEncoded var circulatingSupply: Double?
    @NullEncoded var totalSupply: Double?
    @NullEncoded var maxSupply: Double?
    @NullEncoded var allTimeHigh: Double?
    @NullEncoded var allTimeHighDate: Date?
    @NullEncoded var allTimeHighChangePercent: Double?
    @NullEncoded var allTimeLow: Double?
    @NullEncoded var allTimeLowDate: Date?
    @NullEncoded var allTimeLowChangePercent: Double?

    init(_ market: CoinMarket) {
      marketCap = market.marketCap
      totalVolume = market.totalVolume
      high24h = market.high24h
      low24h = market.low24h
      circulatingSupply = market.circulatingSupply
      totalSupply = market.totalSupply
      maxSupply = market.maxSupply
      allTimeHigh = market.ath
      allTimeHighDate = market.athDate
      allTimeHighChangePercent = market.athChangePercentage
      allTimeLow = market.atl
      allTimeLowDate = market.atlDate
      allTimeLowChangePercent = market.atlChangePercentage
    }
  }

  func run(_ invocation: Invocation) async throws -> ExitCode {
    try CurrencyList.requireCoinGeckoQuotes([currency])
    let asset = try await invocation.desk.resolver().resolve(coin)
    async let marketAnswer = invocation.desk.marketService().markets(currency: CurrencyCode(currency), coins: [asset])
    async let historyAnswer = invocation.desk.service(invocation.desk.coinProvider).history(
      of: asset, in: CurrencyCode(currency), days: days)
    let (answer, history): (MarketService.Answer<[CoinMarket]>, RateService.HistoryResult)
    do {
      (answer, history) = try await (marketAnswer, historyAnswer)
    } catch let error as ProviderError {
      throw error.about(asset, typed: coin)
    }
    guard let market = answer.value.first(where: { $0.id == asset.id }) else {
      // A coin known to exist is missing data, not unknown (ProviderError.about).
      throw ProviderError.coinNotFound(provider: .provider(.coinGecko), coin: coin)
        .about(asset, typed: coin)
    }
    var series = history.series
    series.base = market.symbol
    let staleness = [answer.staleness, history.staleness].compactMap { $0 }.first
    invocation.report(staleness)
    let now = invocation.context.now()
    let document = Document(
      id: market.id, symbol: CurrencyCode(market.symbol).text, name: market.name,
      rank: market.marketCapRank,
      quote: QuoteDocument(
        market, in: currency, fetchedAt: answer.fetchedAt, stale: answer.staleness != nil,
        now: now),
      market: Market(market),
      history: HistoryDocument(series: series, stale: history.staleness != nil))
    try invocation.write(
      CommandOutput(document: document) { [series] layout in
        render(market, series: series, layout: layout, now: now, staleness: staleness)
      })
    return .success
  }

  /// The coin's figures, its sparkline and a stale note, as text.
  func render(
    _ market: CoinMarket, series: RateSeries, layout: TextLayout, now: Date, staleness: Staleness?
  ) -> String {
    let style = layout.style
    let dash = layout.ascii ? "-" : "—"
    var header = style.bold(TerminalText.sanitize("\(market.name) (\(market.symbol))"))
    if let rank = market.marketCapRank { header += "  #\(rank)" }
    header += style.dim("  id: \(TerminalText.sanitize(market.id))")
    var table = MarketFigures.table()
    for row in MarketFigures.rows(market, code: currency, style: style, ascii: layout.ascii) {
      table.append(row)
    }
    table.append(["updated", market.lastUpdated.map { CurrentCommand.clock($0, now: now) } ?? dash])
    var lines = [header, ""] + table.render(maxWidth: layout.width - 2, ascii: layout.ascii).map { "  " + $0 }
    if let stats = SeriesStatistics(points: series.ownPoints) {
      // One column per day, as many as fit beside the day count.
      let label = "  \(series.days.count) days  "
      let line = Sparkline.render(series, width: layout.width - label.count, ascii: layout.ascii)
      let labels = RateFormat.distinct([stats.min, stats.max], format: RateFormat.rate)
      lines.append("")
      lines.append(label + style.change(line, value: stats.change))
      let parts = [
        style.dim("low \(labels[0]) \(stats.minDate)"), style.dim("high \(labels[1]) \(stats.maxDate)"),
        style.dim("change ") + style.change(stats.changePercent.map(RateFormat.percent) ?? dash, value: stats.change),
      ]
      let joined = "  " + parts.joined(separator: "   ")
      // One line when it fits, else one figure a line: never a cut number.
      lines += TerminalText.displayWidth(joined) <= layout.width ? [joined] : parts.map { "  " + $0 }
    }
    if let staleness { lines.append(style.yellow(staleness.mark(now: now))) }
    return lines.joined(separator: "\n")
  }
}
