import RateCore

/// `rates stats <BASE> [<QUOTE>]`: a daily series as a chart with its
/// statistics, volatility, largest daily moves and maximum drawdown.
struct StatsCommand: RatesCommand {
  static let name = "stats"
  static let exportFormats = priceExportFormats
  static let abstract = "statistics of a daily series: volatility, largest moves, drawdown"
  struct Declared: Declarations {
    let base = Argument.required(
      "BASE", help: "a coin or currency, as for 'rates history'",
      completion: .local([.coins, .currencies]))
    let quote = Argument.optional(
      "QUOTE", help: "the currency (default: RATES_CURRENCY or USD); also BASE-QUOTE",
      completion: .local([.coins, .currencies]))
    let days = Option.integer("--days", value: "N", in: 1...365, default: 30) {
      "how many days, \($0.rangeAndDefault); 30, 60, 90 and 365 are typical)"
    }
    let from = HistorySpan.from
    let to = HistorySpan.to
    let interval = HistorySpan.interval
    let ledger = Option.flag(
      "--ledger", help: "use the daily average rate of your own exchanges ('rates ledger')")
  }
  static let discussion = """
    Figures: min and max with their dates, mean, median, sample standard deviation,
    coefficient of variation (standard deviation / mean), first, last and change, the
    largest daily rise and fall with their dates, and the maximum drawdown (the deepest fall
    from an earlier peak). Days that only repeat a previous value (ECB weekends) are drawn
    but not counted. With --interval hourly (coin pairs, the last \(HourlyHistory.maximumDays)
    days): the chart and the hourly statistics, each dated figure with its UTC time.
    """
  static let examples = [
    "rates stats BTC EUR --days 90",
    "rates stats GBP USD --days 365",
    "rates stats EUR USD --from 1999-01-04",
    "rates stats USD LBP --ledger --days 60",
  ]

  static let exclusions =
    [
      OptionRule(OptionUse(HistorySpan.from), excludes: [OptionUse(declared.ledger)], reason: "use --days"),
      OptionRule(HistorySpan.hourly, excludes: [OptionUse(declared.ledger)], reason: "your exchanges are daily"),
    ] + HistorySpan.exclusions(days: declared.days)
  static let requirements = HistorySpan.requirements

  let pair: PairArguments
  let span: HistorySpan
  let ledger: Bool
  let hourly: Bool

  init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
    span = try HistorySpan.parse(&scanner, days: Self.declared.days)
    ledger = try scanner.read(Self.declared.ledger)
    hourly = try HistorySpan.parseHourly(&scanner)
    pair = try PairArguments(
      parsing: &scanner, base: Self.declared.base, quote: Self.declared.quote, defaultQuote: defaults.currency)
  }

  /// The figures beyond the history statistics.
  struct Analysis: Encodable {
    @NullEncoded var coefficientOfVariation: Double?
    @NullEncoded var largestRise: DailyMove?
    @NullEncoded var largestFall: DailyMove?
    @NullEncoded var maxDrawdown: Drawdown?

    init(_ points: [RatePoint]) {
      coefficientOfVariation = Figure.ratio(SeriesAnalysis.coefficientOfVariation(points.map(\.rate)))
      largestRise = SeriesAnalysis.largestRise(points)
      largestFall = SeriesAnalysis.largestFall(points)
      maxDrawdown = SeriesAnalysis.maxDrawdown(points)
    }
  }

  struct Document: Encodable {
    var history: HistoryDocument
    var analysis: Analysis

    func encode(to encoder: any Encoder) throws {
      try history.encode(to: encoder)
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(analysis, forKey: .analysis)
    }
    enum CodingKeys: String, CodingKey { case analysis }
  }

  func run(_ invocation: Invocation) async throws -> ExitCode {
    if hourly { return try await HourlyReport(pair: pair, span: span).run(invocation, layout: .chart) }
    let result = try await fetch(invocation)
    let series = result.series
    guard !series.points.isEmpty else {
      // Nothing cached for these days either: the fetch's own error says why.
      if let reason = result.staleness?.reason { throw reason }
      throw ProviderError.noData(
        provider: series.source,
        detail: "no rates for \(series.base)/\(series.quote) in "
          + span.describe(today: Day(containing: invocation.context.now())))
    }
    invocation.report(result)
    try invocation.write(output(result, invocation))
    return .success
  }

  /// The series with its analysis: the document, the exports, and the chart above the table.
  func output(_ result: RateService.HistoryResult, _ invocation: Invocation) -> CommandOutput {
    let series = result.series
    let analysis = Analysis(series.ownPoints)
    let document = Document(
      history: HistoryDocument(
        series: series, stale: result.staleness != nil, missingToday: result.latestMissing != nil),
      analysis: analysis)
    return CommandOutput(
      document: document, exports: CommandOutput.priceExports(series, resolved: result.asset)
    ) { [self] _ in
      let view = HistoryView(
        series: series, staleness: result.staleness, now: invocation.context.now(),
        terminal: invocation.terminal, style: invocation.style)
      var lines = [view.header(), ""]
      lines += LineChart.render(
        points: series.points, width: max(20, invocation.terminal.width), height: 12,
        ascii: !invocation.terminal.unicode)
      if let caption = view.chartScale() { lines.append(invocation.style.dim("  " + caption)) }
      lines.append("")
      lines += analysisBlock(series, analysis, invocation: invocation)
      lines += view.carriedNote()
      return lines.joined(separator: "\n")
    }
  }

  /// The series: from the pair's provider, or from the ledger.
  func fetch(_ invocation: Invocation) async throws -> RateService.HistoryResult {
    let window = try span.window(today: Day(containing: invocation.context.now()))
    guard ledger else {
      return try await invocation.desk.history(
        base: pair.base, quote: pair.quote, window: window, followsData: span.followsData)
    }
    let days = window.lowerBound.distance(to: window.upperBound) + 1
    let series = try LedgerSeries.daily(
      base: CurrencyCode(pair.base), quote: CurrencyCode(pair.quote), days: days,
      entries: try invocation.userData().ledger.read().entries, now: invocation.context.now())
    return RateService.HistoryResult(series: series, staleness: nil)
  }

  /// `day` without its year when `earlier` is in the same year: `05-31` after `2024-05-24`.
  static func shortDay(_ day: Day, after earlier: Day) -> String {
    let text = day.description
    let year = text.prefix(5)
    return year == earlier.description.prefix(5) ? String(text.dropFirst(5)) : text
  }

  /// The statistics and analysis as a borderless table under the chart.
  func analysisBlock(_ series: RateSeries, _ analysis: Analysis, invocation: Invocation) -> [String] {
    guard let stats = SeriesStatistics(points: series.ownPoints) else { return [] }
    var rows = Self.rows(stats, analysis, series: series, invocation: invocation)
    if series.ownPoints.count < series.points.count {
      rows[rows.count - 1][3] = "with a rate of their own"
    }
    var table = TextTable(
      columns: [
        .init("", priority: TextTable.required), .init("", alignment: .right, priority: TextTable.required),
        .init("", alignment: .right, priority: 2), .init("", priority: 1),
      ],
      showsHeader: false)
    for row in rows { table.append(row) }
    return table.render(maxWidth: invocation.terminal.width - 2, ascii: !invocation.terminal.unicode)
      .map { "  " + $0 }
  }

  /// One row a figure: its name, value, percentage and the day or note it belongs to.
  static func rows(
    _ stats: SeriesStatistics<Day>, _ analysis: Analysis, series: RateSeries, invocation: Invocation
  ) -> [[String]] {
    let style = invocation.style
    let dash = invocation.terminal.unicode ? "—" : "-"
    let arrow = invocation.terminal.unicode ? "→" : "->"
    let code = TerminalText.sanitize(series.quote)
    let column = RateFormat.rateColumn(series.ownPoints.map(\.rate))
    func move(_ move: DailyMove?) -> (String, String, String) {
      guard let move else { return (dash, "", "") }
      return (
        style.change(column.signed(move.change), value: move.change),
        style.change(RateFormat.percent(move.changePercent), value: move.change),
        move.date.description
      )
    }
    let rise = move(analysis.largestRise)
    let fall = move(analysis.largestFall)
    let drawdown = analysis.maxDrawdown
    return [
      ["min", column.amount(stats.min, code: code), "", stats.minDate.description],
      ["max", column.amount(stats.max, code: code), "", stats.maxDate.description],
      ["mean", column.format(stats.mean), "", ""],
      ["median", column.format(stats.median), "", ""],
      ["std dev", stats.stddev.map(column.format) ?? dash, "", "sample"],
      [
        "variation", analysis.coefficientOfVariation.map { RateFormat.fixed($0 * 100, decimals: 2) + "%" } ?? dash,
        "", "std dev / mean",
      ],
      ["first", column.amount(stats.first, code: code), "", stats.firstDate.description],
      ["last", column.amount(stats.last, code: code), "", stats.lastDate.description],
      [
        "change", style.change(column.signed(stats.change), value: stats.change),
        stats.changePercent.map { style.change(RateFormat.percent($0), value: $0) } ?? dash, "",
      ],
      ["largest rise", rise.0, rise.1, rise.2],
      ["largest fall", fall.0, fall.1, fall.2],
      [
        "max drawdown",
        drawdown.map { style.red(column.signed($0.change)) } ?? dash,
        drawdown.map { style.red(RateFormat.percent($0.changePercent)) } ?? "",
        drawdown.map { "\($0.peakDate) \(arrow) " + Self.shortDay($0.troughDate, after: $0.peakDate) } ?? "",
      ],
      ["days", String(stats.count), "", ""],
    ]
  }
}
