import RateCore

/// `rates history <BASE> [<QUOTE>]`: the last N days as a sparkline, chart or
/// table, with statistics.
struct HistoryCommand: RatesCommand {
  static let name = "history"
  static let exportFormats = priceExportFormats
  static let abstract = "daily rates for the last N days or any range, with statistics"
  struct Declared: Declarations {
    let base = Argument.required(
      "BASE",
      help: "a coin symbol or CoinGecko id (BTC, eth, ethereum-wormhole), or a currency code "
        + "(GBP)",
      completion: .local([.coins, .currencies]))
    let quote = Argument.optional(
      "QUOTE",
      help: "the currency to price it in (default: RATES_CURRENCY or USD); the pair may also "
        + "be written BTC-EUR or BTC/EUR", completion: .local([.coins, .currencies]))
    let days = Option.integer("--days", value: "N", in: 1...365, default: 28) {
      "how many days, \($0.rangeAndDefault)): N points, one per UTC day, the last being "
        + "today's latest price"
    }
    let from = HistorySpan.from
    let to = HistorySpan.to
    let date = HistorySpan.date
    let interval = HistorySpan.interval
    let chart = Option.flag(
      "--chart", help: "a multi-row line chart fitted to the terminal width")
    let table = Option.flag(
      "--table",
      help: "one row per day with the change from the previous day; on a terminal, a table "
        + "longer than the window goes through RATES_PAGER, PAGER or less -FRX")
    let interactive = Option.flag(
      "--interactive",
      help: "explore the chart on a terminal, on the home screen's detail: a cursor on the "
        + "last day, ←/→ or h/l move it one day, Home/End or g/G jump to the first or last day, "
        + "a click or drag picks a day, 1-4 show 7/30/90/365 days, q, Esc or Ctrl-C quit; the "
        + "selected day's date, value and change show under the chart, the last day follows "
        + "the live price. Needs a terminal on stdin and stdout (else exit 64)")
  }
  static let optionGroups = [OptionGroup(declared.chart, declared.table, declared.interactive)]
  static let exclusions =
    [
      OptionRule(
        OptionUse(declared.interactive),
        excludes: [
          OptionUse(declared.chart), OptionUse(declared.table), OptionUse(HistorySpan.date), HistorySpan.hourly,
        ],
        formats: OutputFormat.allCases.filter { $0 != .table }),
      OptionRule(
        HistorySpan.hourly, excludes: [OptionUse(HistorySpan.date)], reason: "a day has one rate"),
    ] + HistorySpan.exclusions(days: declared.days, single: HistorySpan.date)
  static let requirements = HistorySpan.requirements
  static let discussion = """
    Fiat pairs (GBP USD) use ECB reference rates; a weekend or holiday repeats the last
    working day's rate (at most \(MarketClosure.maximumCarriedDays) days, Good Friday to Easter Monday), marked 'carried'. A
    day without a rate is a gap ('—', null in JSON), never filled in. Pairs with a coin use
    CoinGecko, then Coinbase and Kraken when it fails or the range starts more than 365 days
    ago without a Pro key; EUR BTC is the inverse of BTC EUR.

    --interval hourly shows CoinGecko's hourly points (coin pairs, the last
    \(HourlyHistory.maximumDays) days, times in UTC) in every output; --format ledger writes
    'P YYYY-MM-DD HH:MM:SS' directives, and beancount, whose prices have no time, is refused.

    A past day's value is its close: the price at that UTC day's end (CoinGecko's point
    at the next 00:00 UTC, an exchange's UTC daily candle close, CoinDesk's daily close).
    Today's value is the current price.
    """
  static let examples = [
    "rates history BTC EUR",
    "rates history ETH-USD --days 90 --chart",
    "rates history EUR USD --from 1999-01-04",
    "rates history GBP USD --from 2020-01-01 --to 2020-12-31 --table",
    "rates history EUR USD --date 2019-03-17",
    "rates history BTC EUR --days 90 --interactive",
    "rates history BTC EUR --days 7 --interval hourly --chart",
    "rates history BTC GBP --table --provider coindesk",
    "rates history GBP USD --table",
    "rates history BTC EUR --json | jq '.stats.changePercent'",
  ]

  enum Layout: Sendable { case sparkline, chart, table, interactive }

  let pair: PairArguments
  let span: HistorySpan
  let layout: Layout
  let hourly: Bool

  init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
    span = try HistorySpan.parse(
      &scanner, days: Self.declared.days, single: HistorySpan.date)
    let chart = try scanner.read(Self.declared.chart)
    let table = try scanner.read(Self.declared.table)
    let interactive = try scanner.read(Self.declared.interactive)
    layout = interactive ? .interactive : chart ? .chart : table ? .table : .sparkline
    hourly = try HistorySpan.parseHourly(&scanner)
    pair = try PairArguments(
      parsing: &scanner, base: Self.declared.base, quote: Self.declared.quote, defaultQuote: defaults.currency)
  }

  func run(_ invocation: Invocation) async throws -> ExitCode {
    if layout == .interactive { try checkInteractive(invocation) }
    if hourly { return try await HourlyReport(pair: pair, span: span).run(invocation, layout: layout) }
    let today = Day(containing: invocation.context.now())
    let window = try span.window(today: today)
    if case .single(let day) = span {
      let rate = try await invocation.desk.rate(base: pair.base, quote: pair.quote, on: day)
      return try DayLookup(day: day, rate: rate).run(invocation)
    }
    let result = try await fetch(window: window, today: today, invocation)
    if layout == .interactive {
      return try await explore(result, followsToday: window.upperBound >= today, invocation)
    }
    try invocation.write(output(result, invocation))
    return .success
  }

  /// Refuses `--interactive` without a terminal: checked before fetching, as there is
  /// nothing to do (the parser has refused it with another output, by ``exclusions``).
  func checkInteractive(_ invocation: Invocation) throws {
    guard HomeCommand.isInteractive(invocation.context) else { throw Self.needsTerminal }
  }

  static let needsTerminal = UsageError.invalid(
    "--interactive needs a terminal: run it in one, or drop --interactive")

  /// The home screen's detail for the fetched range, as `--interactive` shows it.
  func explore(
    _ result: RateService.HistoryResult, followsToday: Bool, _ invocation: Invocation
  ) async throws -> ExitCode {
    do {
      return try await HomeCommand.explore(
        base: pair.base, quote: pair.quote, result: result, followsToday: followsToday,
        invocation: invocation)
    } catch is RawMode.Failure {
      throw Self.needsTerminal
    }
  }

  /// The window's daily series with its notes on stderr; no point at all is the fetch's error.
  func fetch(
    window: ClosedRange<Day>, today: Day, _ invocation: Invocation
  ) async throws -> RateService.HistoryResult {
    let result = try await invocation.desk.history(
      base: pair.base, quote: pair.quote, window: window, followsData: span.followsData)
    let series = result.series
    guard !series.points.isEmpty else {
      // Nothing cached for these days either: the fetch's own error says why.
      if let reason = result.staleness?.reason { throw reason }
      throw ProviderError.noData(
        provider: series.source,
        detail: "no prices for \(series.base)/\(series.quote) in \(span.describe(today: today))")
    }
    invocation.report(result)
    noteMissingDays(result, window: window, today: today, invocation)
    return result
  }

  /// The series as its document, its exports and the sparkline, chart or (paged) table.
  func output(_ result: RateService.HistoryResult, _ invocation: Invocation) -> CommandOutput {
    let series = result.series
    let stale = result.staleness != nil
    let missingToday = result.latestMissing != nil
    let view = HistoryView(
      series: series, staleness: result.staleness, now: invocation.context.now(),
      terminal: invocation.terminal, style: invocation.style)
    let layout = layout
    return CommandOutput(
      // The document is made only for --json: its points and statistics cost a warm text run
      // about 90,000 instructions it does not need.
      json: {
        try HistoryDocument(series: series, stale: stale, missingToday: missingToday).prettyJSON()
      },
      exports: CommandOutput.priceExports(series, resolved: result.asset),
      body: .rendered(pages: layout == .table) { _ in
        switch layout {
        case .chart: view.chartReport()
        case .table: view.tableReport()
        case .sparkline, .interactive: view.sparklineReport()
        }
      })
  }
}

extension HistoryCommand {
  /// Says on stderr why days of `window` have no data: a currency that ended
  /// before its end (the series stops there), or how few days have a value,
  /// out of the days the series spans (a range starting before the source's
  /// first day counts from that day).
  func noteMissingDays(
    _ result: RateService.HistoryResult, window: ClosedRange<Day>, today: Day,
    _ invocation: Invocation
  ) {
    let count = result.series.points.count
    if let ended = invocation.desk.endedCurrency(base: pair.base, quote: pair.quote),
      window.upperBound > ended.lastDay
    {
      invocation.err("note: \(ended.headline); showing the days up to it")
    } else if let asked = span.expectedDays(today: today), result.staleness == nil,
      case let days = min(asked, count + result.series.gaps.count), count < days
    {
      invocation.err("note: only \(count) of \(days) days have data")
    }
  }
}

/// The `history --json` document. Keys are a stable contract.
struct HistoryDocument: Encodable {
  /// One day: its rate, or `null` for a day without one (a gap); in a series from several
  /// sources, the source of its rate.
  struct Point: Encodable {
    var date: Day
    @NullEncoded var rate: Double?
    var carried: Bool
    /// Set only in a series from more than one source, on a day with a rate.
    var source: String? = nil

    enum CodingKeys: String, CodingKey { case date, rate, carried, source }

    /// The same members as the synthesized encoding, written straight into one keyed
    /// container: no nested encoder for the day and the rate, which made `--json` of
    /// 10,000 points slower than `--format csv`.
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(date.description, forKey: .date)
      if let rate {
        try container.encode(rate, forKey: .rate)
      } else {
        try container.encodeNil(forKey: .rate)
      }
      try container.encode(carried, forKey: .carried)
      try container.encodeIfPresent(source, forKey: .source)
    }
  }
  /// A run of days from one source, in a series from more than one.
  struct SourceSpan: Encodable {
    var source: String
    var firstDay: Day
    var lastDay: Day
  }
  var base: String
  var quote: CurrencyCode
  var source: String
  var fetchedAt: Date
  var stale: Bool
  /// True when the past days arrived but today's price did not.
  var missingToday: Bool
  var points: [Point]
  /// The runs of days by source, oldest first: only in a series from more than one.
  var sources: [SourceSpan]?
  var stats: SeriesStatistics<Day>?

  init(series: RateSeries, stale: Bool, missingToday: Bool = false) {
    base = series.base
    quote = series.quote
    source = series.source.name
    fetchedAt = series.fetchedAt
    self.stale = stale
    self.missingToday = missingToday
    let mixed = series.isMixed
    points = series.days.map {
      Point(
        date: $0.day, rate: $0.point?.rate, carried: $0.point?.carried ?? false,
        source: mixed && $0.point != nil ? series.source(on: $0.day).name : nil)
    }
    sources =
      mixed
      ? series.sources.map { SourceSpan(source: $0.source.name, firstDay: $0.first, lastDay: $0.last) } : nil
    stats = SeriesStatistics(points: series.ownPoints)
  }
}

extension HistoryDocument {
  /// What `printJSON` writes for this document, with the points (10,000 for a range since
  /// 1999) written by ``pointsText(_:)`` rather than by JSONEncoder, which took longer than
  /// the whole CSV export. The encoder still writes the rest and the first point, and the
  /// points are spliced in only where ``pointsText(_:)`` wrote that point exactly as the
  /// encoder did; otherwise (and for a rate JSON cannot hold) the encoder writes it all.
  func prettyJSON() throws -> String {
    guard points.count > 1,
      points.allSatisfy({ ($0.rate?.isFinite ?? true) && ($0.source.map(Self.isPlain) ?? true) })
    else {
      return try CommandOutput.encoded(self)
    }
    var shell = self
    shell.points = [points[0]]
    let text = try CommandOutput.encoded(shell)
    guard let first = text.firstRange(of: "\"points\" : " + Self.pointsText(shell.points)) else {
      return try CommandOutput.encoded(self)
    }
    return text[..<first.lowerBound] + "\"points\" : " + Self.pointsText(points)
      + text[first.upperBound...]
  }

  /// The points as JSONEncoder writes them pretty, sorted keys, one level deep.
  static func pointsText(_ points: [Point]) -> String {
    var text = "[\n"
    for (index, point) in points.enumerated() {
      text += "    {\n      \"carried\" : " + (point.carried ? "true" : "false")
      text += ",\n      \"date\" : \"" + point.date.description + "\",\n      \"rate\" : "
      text += point.rate.map(numberText) ?? "null"
      if let source = point.source { text += ",\n      \"source\" : \"" + source + "\"" }
      text += index == points.count - 1 ? "\n    }\n" : "\n    },\n"
    }
    return text + "  ]"
  }

  /// Whether `name` is written by JSONEncoder as it is (letters, digits, `.`, `_`, `-`).
  static func isPlain(_ name: String) -> Bool {
    name.utf8.allSatisfy(DayStore.Fetch.isNameByte)
  }

  /// A finite `Double` as JSONEncoder writes it: its description without a trailing `.0`.
  static func numberText(_ value: Double) -> String {
    let text = value.description
    return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
  }
}
