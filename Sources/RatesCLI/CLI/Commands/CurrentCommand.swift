import RateCore

/// `rates current [COIN ...] [--in CUR,...]`: current prices with their
/// 24-hour change.
struct CurrentCommand: RatesCommand {
  static let name = "current"
  static let exportFormats = priceExportFormats
  static let abstract = "current prices with their 24-hour change"
  struct Declared: Declarations {
    let subjects = Argument.repeating(
      "COIN|PAIR",
      help: "coin symbols or CoinGecko ids, priced in each --in currency (default: BTC), or "
        + "explicit pairs such as GBP-USD, EUR-AUD or EUR/BTC",
      isOptional: true, completion: .local([.coins, .pairs, .currencies]))
    let currencies = Option.currencies(
      help: "currencies for the coins, comma-separated or repeated (default: RATES_CURRENCY or USD)")
  }
  static let discussion = """
    Coins come from one CoinGecko request, fiat pairs from one ECB (Frankfurter) request,
    fetched concurrently. A coin price fetched less than a minute ago (an ECB rate, an
    hour) is reused from the cache. For ECB rates the change is since the previous working
    day.
    """
  static let examples = [
    "rates current BTC ETH --in EUR,USD",
    "rates current GBP-USD EUR-AUD",
    "rates current solana --in GBP --json | jq '.quotes[0].rate'",
  ]

  /// One requested pair, as typed.
  struct Request: Sendable, Equatable {
    var base: String
    var quote: String
  }

  let requests: [Request]

  init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
    let currencies = try CurrencyList.parse(
      try scanner.read(Self.declared.currencies), default: defaults.currency)
    var requests: [Request] = []
    func add(_ request: Request) {
      if !requests.contains(where: {
        $0.base.lowercased() == request.base.lowercased() && $0.quote == request.quote
      }) {
        requests.append(request)
      }
    }
    let arguments = try scanner.read(Self.declared.subjects)
    for argument in arguments.isEmpty ? ["BTC"] : arguments {
      for pair in try PairArguments.pairs(argument, in: currencies) {
        add(Request(base: pair.base, quote: pair.quote))
      }
    }
    self.requests = requests
  }

  func run(_ invocation: Invocation) async throws -> ExitCode {
    // What an answer left out is named below, with what failed, in one line.
    let desk = invocation.desk.showing { if case .missingFromAnswer = $0 { false } else { true } }
    let routes = try requests.map { try desk.route($0.base, $0.quote) }
    // Each route has its own outcome: one failing provider (or pair) neither blanks the
    // others nor marks their fresh prices stale.
    let results = await desk.quoteResults(for: routes)
    var routed: [RateDesk.RoutedQuote] = []
    var missing: [MissingFigure] = []
    for (request, (route, result)) in zip(requests, zip(routes, results)) {
      let name = TerminalText.sanitize("\(request.base)/\(request.quote)")
      switch result {
      case .success(let quote?): routed.append(quote)
      case .success(nil): missing.append(MissingFigure(name, provider: .provider(route.provider)))
      case .failure(let error): missing.append(MissingFigure(name, failure: error))
      }
    }
    try invocation.report(partial: missing, arrived: !routed.isEmpty)
    let staleness = routed.compactMap(\.staleness).min { $0.fetchedAt < $1.fetchedAt }
    invocation.report(staleness)
    try invocation.write(
      Self.output(
        routed, missing: missing.map(\.name), staleness: staleness, now: invocation.context.now()))
    return .success
  }

  /// The quotes as the `current` document, CSV, price directives and table.
  static func output(
    _ routed: [RateDesk.RoutedQuote], missing: [String], staleness: Staleness?, now: Date
  ) -> CommandOutput {
    let quotes = routed.map { (quote: $0.quote, stale: $0.staleness != nil) }
    // Journal names from the coin each route resolved: never a second lookup.
    let names = routed.map {
      (
        base: CommodityName.of(CurrencyCode($0.quote.base), source: $0.quote.source, resolved: $0.asset),
        quote: CommodityName.of($0.quote.quote, source: $0.quote.source, resolved: $0.asset)
      )
    }
    let today = Day(containing: now)
    let document = CurrentDocument(
      quotes: quotes.map { QuoteDocument($0.quote, stale: $0.stale, now: now) }, missing: missing)
    return CommandOutput(
      document: document, csv: { PriceExport.csv(quotes: quotes) },
      journal: { journal in
        zip(quotes, names).compactMap { item, name in
          PriceExport.directive(
            day: RateService.day(of: item.quote, today: today), base: name.base,
            rate: item.quote.rate, quote: name.quote, journal: journal)
        }.joined(separator: "\n")
      },
      text: { table(quotes, staleness: staleness, now: now, $0).joined(separator: "\n") })
  }

  /// The quotes as a table, with a line saying how old stale data is.
  static func table(
    _ quotes: [(quote: Quote, stale: Bool)], staleness: Staleness?, now: Date, _ layout: TextLayout
  ) -> [String] {
    let style = layout.style
    var table = TextTable(columns: [
      .init("PAIR", priority: TextTable.required),
      .init("RATE", alignment: .right, priority: TextTable.required),
      .init("CHANGE", alignment: .right, priority: 2), .init("UPDATED", priority: 1), .init("SOURCE"),
    ])
    for (quote, stale) in quotes {
      let change = quote.change24hPercent
      let ecb = quote.source.isECB
      let old = UpdateRhythm.isOld(quote, at: now) ? style.yellow(" (old)") : ""
      table.append([
        TerminalText.sanitize("\(quote.base)/\(quote.quote)"),
        RateFormat.rate(quote.rate),
        change.map {
          style.change(RateFormat.percent($0), value: $0) + " " + style.dim(ecb ? "1d" : "24h")
        } ?? "—",
        quote.updatedAt.map {
          (ecb ? "\(Day(containing: $0)) (ECB)" : Self.clock($0, now: now)) + old
        } ?? "",
        quote.source.displayName + (stale ? style.yellow(" (stale)") : ""),
      ])
    }
    var lines = layout.render(table)
    if let staleness { lines.append(style.yellow(staleness.mark(now: now))) }
    return lines
  }

  /// `14:05 UTC` for today, else `2026-11-20 14:05 UTC`.
  static func clock(_ date: Date, now: Date) -> String {
    let text = ISO8601.format(date)
    let time = String(text.dropFirst(11).prefix(5)) + " UTC"
    return Day(containing: date) == Day(containing: now) ? time : "\(Day(containing: date)) \(time)"
  }
}

/// The `current --json` document. Keys are a stable contract (docs/json.md).
struct CurrentDocument: Encodable, Sendable {
  var quotes: [QuoteDocument]
  /// The pairs asked for that the answer lacks, `BASE/QUOTE` as typed.
  var missing: [String]
}
