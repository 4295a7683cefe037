import RateCore

/// One coin of `top`, `coins` or `favorites`: its market rows by currency and how it is marked.
struct MarketRow: Sendable {
  var coin: CoinMarket
  /// Starred (`favorite` in JSON).
  var favorite: Bool
  /// `inTop` in JSON.
  var inTop: Bool
  var byCurrency: [String: CoinMarket]
  /// Whether the table marks the coin with a star.
  var starMark: Bool
  /// Whether the table lists the coin under "your coins", after the top.
  var belowTop: Bool
}

/// The JSON document of `top`, `coins` and `favorites`.
struct MarketDocument: Encodable, Sendable {
  /// A coin's quote in one currency, with its market cap in that currency.
  struct Price: Encodable, Sendable {
    var quote: QuoteDocument
    @NullEncoded var marketCap: Double?

    private enum CodingKeys: String, CodingKey { case marketCap }

    func encode(to encoder: any Encoder) throws {
      try quote.encode(to: encoder)
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(_marketCap, forKey: .marketCap)
    }
  }
  struct Coin: Encodable, Sendable {
    var id: String
    var symbol: String
    var name: String
    @NullEncoded var rank: Int?
    var favorite: Bool
    var inTop: Bool
    /// One quote per currency, in the order of the document's `currencies`.
    var quotes: [Price]

    init(_ row: MarketRow, currencies: [String], fetchedAt: Date, stale: Bool, now: Date) {
      id = row.coin.id
      symbol = row.coin.symbol
      name = row.coin.name
      rank = row.coin.marketCapRank
      favorite = row.favorite
      inTop = row.inTop
      quotes = currencies.compactMap { currency in
        row.byCurrency[currency].map {
          Price(
            quote: QuoteDocument($0, in: currency, fetchedAt: fetchedAt, stale: stale, now: now),
            marketCap: $0.marketCap)
        }
      }
    }
  }
  var currencies: [String]
  var source = Provider.coinGecko
  var fetchedAt: Date
  var stale: Bool
  var coins: [Coin]
  /// What the answer lacks: `SYMBOL/CURRENCY` for a coin, `ranks 501-750 in
  /// USD` for a page of the top that did not arrive, `the top 5 coins in EUR` for a currency.
  var missing: [String] = []
}

/// The output of `top`, `coins` and `favorites`: the ``MarketDocument`` and its table.
enum MarketTable {
  /// The document of `rows` and the table it reads as.
  static func output(
    _ rows: [MarketRow], currencies: [String], fetchedAt: Date, staleness: Staleness?,
    missing: [MissingFigure], now: Date
  ) -> CommandOutput {
    let document = MarketDocument(
      currencies: currencies, fetchedAt: fetchedAt, stale: staleness != nil,
      coins: rows.map {
        MarketDocument.Coin(
          $0, currencies: currencies, fetchedAt: fetchedAt, stale: staleness != nil, now: now)
      },
      missing: missing.map(\.name))
    return CommandOutput(document: document) { layout in
      render(rows, currencies: currencies, layout: layout, staleness: staleness, now: now)
    }
  }

  /// The table: rank, coin, name, price and 24-hour change per currency, market cap.
  static func render(
    _ rows: [MarketRow], currencies: [String], layout: TextLayout, staleness: Staleness?,
    now: Date
  ) -> String {
    let (style, ascii) = (layout.style, layout.ascii)
    let columns = self.columns(currencies)
    var table = TextTable(columns: columns)
    var addedSeparator = false
    for row in rows {
      if row.belowTop && !addedSeparator {
        addedSeparator = true
        table.append(columns.indices.map { $0 == 2 ? style.dim(ascii ? "-- your coins" : "── your coins") : "" })
      }
      var cells = [
        row.coin.marketCapRank.map(String.init) ?? "—",
        TerminalText.sanitize(row.coin.symbol) + (row.starMark ? (ascii ? " *" : " ★") : ""),
        TerminalText.name(row.coin.name, symbol: row.coin.symbol),
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
    var lines = layout.render(table)
    if let staleness { lines.append(style.yellow(staleness.mark(now: now))) }
    return lines.joined(separator: "\n")
  }

  /// Narrowing shortens NAME, then drops MCAP, the 24H columns, the other currencies' prices,
  /// the rank and NAME, in that order; COIN and the first price always stay.
  private static func columns(_ currencies: [String]) -> [TextTable.Column] {
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
    return columns
  }
}
