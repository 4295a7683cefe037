import RateCore

/// `rates top`: the largest coins by market cap, then the user's coins.
struct TopCommand: RatesCommand {
  static let name = "top"
  static let abstract = "the top coins by market cap, then your coins"
  static let limit = OptionSpec.option(
    "--limit", value: "N", help: "how many coins, 1 to 1000 (default 5)")
  static let currencies = OptionSpec.option(
    "--in", value: "LIST", repeatable: true,
    help: "currencies, comma-separated (default: RATES_CURRENCY or USD); market caps are in "
      + "the first",
    completion: .local([.currencies]))
  static let options = [limit, currencies]
  static let discussion = """
    Each row: rank, symbol, name, price, 24-hour change and market cap; starred coins
    (favorites) are marked. Your coins (rates coins) that are not in the top N follow. One
    request per currency and 250 coins (CoinGecko's page), concurrently (your coins outside
    the top 100 cost one more per 250 of them); answers are cached for a minute.
    """
  static let examples = [
    "rates top",
    "rates top --limit 20 --in EUR,USD",
    "rates top --json | jq '.coins[] | {symbol, rate: .quotes[0].rate}'",
  ]

  let limit: Int
  /// How many coins `top` lists without `--limit`.
  static let defaultLimit = 5
  let currencies: [String]

  init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
    limit = try scanner.integer(Self.limit, in: 1...1000) ?? Self.defaultLimit
    currencies = try CurrencyList.parse(
      try scanner.options(Self.currencies), default: defaults.currency)
  }

  struct Row: Sendable {
    var coin: CoinMarket
    var favorite: Bool
    var inTop: Bool
    var byCurrency: [String: CoinMarket]
  }

  func run(_ invocation: Invocation) async throws -> ExitCode {
    try CurrencyList.requireCoinGeckoQuotes(currencies)
    let data = invocation.userData()
    let coins = try data.readCoins()
    let favoriteIDs = Set(try data.favorites.read().map(\.id))
    let answers = try await invocation.desk.listings(
      in: currencies, top: limit, following: coins.map(\.asset))
    let staleness = answers.flatMap { [$0.top.staleness, $0.others?.staleness] }.compactMap { $0 }
      .min { $0.fetchedAt < $1.fetchedAt }
    invocation.report(staleness)
    let missing = answers.flatMap(\.top.missing)
    invocation.report(missing: missing, from: Providers.coinGecko)
    guard let primary = answers.first else { return .success }
    var rows: [Row] = primary.top.value.map {
      Row(coin: $0, favorite: favoriteIDs.contains($0.id), inTop: true, byCurrency: [:])
    }
    rows += (primary.others?.value ?? []).map {
      Row(coin: $0, favorite: favoriteIDs.contains($0.id), inTop: false, byCurrency: [:])
    }
    // Your coins the answer had nothing for show as such (dashes), as in `coins`.
    let shown = Set(rows.map(\.coin.id))
    rows += coins.filter { !shown.contains($0.id) }.map {
      Row(coin: .placeholder($0), favorite: favoriteIDs.contains($0.id), inTop: false, byCurrency: [:])
    }
    for index in rows.indices {
      for answer in answers {
        let all = answer.top.value + (answer.others?.value ?? [])
        if let match = all.first(where: { $0.id == rows[index].coin.id }) {
          rows[index].byCurrency[answer.currency] = match
        }
      }
    }
    let fetchedAt = answers.map(\.top.fetchedAt).min() ?? invocation.context.now()
    if invocation.options.json {
      try invocation.printJSON(
        MarketDocument(
          currencies: currencies, fetchedAt: fetchedAt, stale: staleness != nil,
          coins: rows.map {
            MarketDocument.Coin(
              $0.coin, favorite: $0.favorite, inTop: $0.inTop, byCurrency: $0.byCurrency,
              currencies: currencies, fetchedAt: fetchedAt, stale: staleness != nil,
              now: invocation.context.now())
          },
          missing: missing))
      return .success
    }
    invocation.out(
      MarketTable.render(
        rows: rows.map { ($0.coin, $0.favorite, $0.inTop, $0.byCurrency) }, currencies: currencies,
        invocation: invocation, staleness: staleness))
    return .success
  }
}

/// Parses `--in` lists: comma-separated or repeated codes, upper-cased, deduplicated.
enum CurrencyList {
  static func parse(_ values: [String], default fallback: String) throws(UsageError) -> [String] {
    var currencies: [String] = []
    for item in values.flatMap({ $0.split(separator: ",") }) {
      let code = item.trimming(.whitespaces).uppercased()
      guard PairArguments.isCurrencyCode(code) else {
        throw UsageError.invalidValue(
          option: "--in", value: String(item), expected: "currency codes such as EUR,USD")
      }
      if !currencies.contains(code) { currencies.append(code) }
    }
    guard currencies.isEmpty else { return currencies }
    guard PairArguments.isCurrencyCode(fallback) else {
      throw UsageError.invalid(
        "RATES_CURRENCY '\(TerminalText.sanitize(fallback))' is not a currency code: use one such as USD or EUR")
    }
    return [fallback.uppercased()]
  }

  /// Refuses, before any request, currencies CoinGecko does not price in.
  static func requireCoinGeckoQuotes(_ currencies: [String]) throws {
    for currency in currencies where !CurrencyCodes.coinGeckoQuotes.contains(currency) {
      throw ProviderError.invalidCurrency(provider: Providers.coinGecko, currency: currency)
    }
  }
}

/// The JSON document of `top`, `coins` and `favorites`.
struct MarketDocument: Encodable {
  /// A coin's quote in one currency, with its market cap in that currency.
  struct Price: Encodable {
    var quote: QuoteDocument
    @NullEncoded var marketCap: Double?

    private enum CodingKeys: String, CodingKey { case marketCap }

    func encode(to encoder: any Encoder) throws {
      try quote.encode(to: encoder)
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(_marketCap, forKey: .marketCap)
    }
  }
  struct Coin: Encodable {
    var id: String
    var symbol: String
    var name: String
    @NullEncoded var rank: Int?
    var favorite: Bool
    var inTop: Bool
    /// One quote per currency, in the order of the document's `currencies`.
    var quotes: [Price]

    init(
      _ coin: CoinMarket, favorite: Bool, inTop: Bool, byCurrency: [String: CoinMarket],
      currencies: [String], fetchedAt: Date, stale: Bool, now: Date
    ) {
      id = coin.id
      symbol = coin.symbol
      name = coin.name
      rank = coin.marketCapRank
      self.favorite = favorite
      self.inTop = inTop
      quotes = currencies.compactMap { currency in
        byCurrency[currency].map {
          Price(
            quote: QuoteDocument($0, in: currency, fetchedAt: fetchedAt, stale: stale, now: now),
            marketCap: $0.marketCap)
        }
      }
    }
  }
  var currencies: [String]
  var source = Providers.coinGecko
  var fetchedAt: Date
  var stale: Bool
  var coins: [Coin]
  /// What the answer lacks: `SYMBOL/CURRENCY` for a coin, `ranks 501-750 in
  /// USD` for a page of the top that did not arrive.
  var missing: [String] = []
}

/// The table of `top`, `coins` and `favorites`.
enum MarketTable {
  static func render(
    rows: [(coin: CoinMarket, favorite: Bool, inTop: Bool, byCurrency: [String: CoinMarket])],
    currencies: [String], invocation: Invocation, staleness: Staleness?
  ) -> String {
    let style = invocation.style
    let ascii = !invocation.terminal.unicode
    // Narrowing shortens NAME, then drops MCAP, the 24H columns, the other currencies' prices,
    // the rank and NAME, in that order; COIN and the first price always stay.
    var columns: [TextTable.Column] = [
      .init("#", alignment: .right, priority: 3), .init("COIN", priority: TextTable.required),
      .init("NAME", fit: .shrinks, priority: 2),
    ]
    for (index, currency) in currencies.enumerated() {
      columns.append(
        .init(
          currencies.count > 1 ? currency : "PRICE \(currency)", alignment: .right,
          priority: index == 0 ? TextTable.required : 4))
      columns.append(.init("24H", alignment: .right, priority: 1))
    }
    columns.append(.init("MCAP \(currencies.first ?? "")", alignment: .right, priority: 0))
    var table = TextTable(columns: columns)
    var addedSeparator = false
    for row in rows {
      if !row.inTop && !addedSeparator {
        addedSeparator = true
        table.append(columns.indices.map { $0 == 2 ? style.dim(ascii ? "-- your coins" : "── your coins") : "" })
      }
      var cells = [
        row.coin.marketCapRank.map(String.init) ?? "—",
        TerminalText.sanitize(row.coin.symbol) + (row.favorite ? (ascii ? " *" : " ★") : ""),
        TerminalText.sanitize(row.coin.name),
      ]
      for currency in currencies {
        let market = row.byCurrency[currency]
        cells.append(market?.currentPrice.map(RateFormat.rate) ?? "—")
        cells.append(
          market?.priceChangePercentage24h.map { style.change(RateFormat.percent($0), value: $0) } ?? "—")
      }
      let cap = row.byCurrency[currencies.first ?? ""]?.marketCap
      cells.append(cap.flatMap { $0 > 0 ? RateFormat.compact($0) : nil } ?? "—")
      table.append(cells)
    }
    var lines = table.render(maxWidth: invocation.terminal.width, ascii: ascii)
    if let staleness {
      lines.append(
        style.yellow(
          "stale: cached \(AgeText.describe(invocation.context.now().timeIntervalSince(staleness.fetchedAt))) ago"))
    }
    return lines.joined(separator: "\n")
  }
}
