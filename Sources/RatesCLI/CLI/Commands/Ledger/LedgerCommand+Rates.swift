import RateCore

/// `rates ledger rate` and `rates ledger stats`: what the ledger says a pair is worth.
extension LedgerCommand {
  // MARK: - Rate

  static func rate(base: CurrencyCode, quote: CurrencyCode, days: Int, _ invocation: Invocation) throws -> ExitCode {
    let window = LedgerMath.window(days: days, endingOn: today(invocation))
    let entries = try invocation.userData().ledger.entries(since: window.lowerBound)
    // RateCore's one rule (averaged in the orientation the exchanges were recorded in, then
    // inverted), as `convert --ledger` and `stats --ledger` use it.
    let rate = try LedgerSeries.rate(
      base: base, quote: quote, days: days, entries: entries, today: today(invocation))
    let document = LedgerRateDocument(
      window: LedgerWindowFields(
        base: base, quote: quote, window: window, fetchedAt: invocation.context.now()),
      figures: LedgerRateFigures(
        buy: Figure.ratio(rate.buy), buyCount: rate.buyCount,
        sell: Figure.ratio(rate.sell), sellCount: rate.sellCount,
        midpoint: Figure.ratio(rate.midpoint), rate: Figure.ratio(rate.midpoint),
        sides: rate.buy == nil ? "sell" : rate.sell == nil ? "buy" : "both"))
    try invocation.write(CommandOutput(document: document) { Self.text(document, $0) })
    return .success
  }

  /// `ledger rate` as text: each side's rate and count, then the midpoint or the one side.
  static func text(_ rate: LedgerRateDocument, _ layout: TextLayout) -> String {
    let (base, quote, style) = (rate.window.base, rate.window.quote, layout.style)
    let figures = rate.figures
    func exchanges(_ count: Int) -> String {
      count == 0 ? "no exchanges" : count == 1 ? "1 exchange" : "\(count) exchanges"
    }
    var table = TextTable(
      columns: [.init(""), .init("", alignment: .right), .init("")], showsHeader: false)
    table.append(
      ["  you bought \(base)", figures.buy.map(RateFormat.rate) ?? "—", exchanges(figures.buyCount)])
    table.append(
      ["  you sold \(base)", figures.sell.map(RateFormat.rate) ?? "—", exchanges(figures.sellCount)])
    let midpoint = style.bold(RateFormat.rate(figures.midpoint))
    switch figures.sides {
    case "both": table.append(["  midpoint", midpoint, ""])
    case "buy": table.append(["  rate", midpoint, "buys only"])
    default: table.append(["  rate", midpoint, "sells only"])
    }
    var lines = [
      style.bold("\(base)/\(quote) from your ledger"),
      style.dim("\(quote) per \(base), \(describe(rate.window.span))"),
      table.render(maxWidth: layout.width, ascii: layout.ascii).joined(separator: "\n"),
    ]
    if figures.sides != "both" {
      let missing = figures.sides == "buy" ? "sold" : "bought"
      lines.append(
        style.dim(
          "You \(missing) no \(base) in these days, so the rate is the \(figures.sides) rate alone."))
    }
    return lines.joined(separator: "\n")
  }

  /// `the last 3 days (2026-11-20 to 2026-11-22)`, or `today (2026-11-22)`.
  static func describe(_ window: ClosedRange<Day>) -> String {
    let days = window.lowerBound.distance(to: window.upperBound) + 1
    if days == 1 { return "today (\(window.upperBound))" }
    return "the last \(days) days (\(window.lowerBound) to \(window.upperBound))"
  }

  // MARK: - Stats

  static func stats(base: CurrencyCode, quote: CurrencyCode, days: Int, _ invocation: Invocation) throws
    -> ExitCode
  {
    let window = LedgerMath.window(days: days, endingOn: today(invocation))
    let series = LedgerMath.dailyAverages(
      entries: try invocation.userData().ledger.entries(since: window.lowerBound), base: base,
      quote: quote, window: window)
    guard !series.all.isEmpty else {
      throw LedgerQueryError.noExchanges(base: base, quote: quote, days: days)
    }
    let document = LedgerStatsDocument(
      window: LedgerWindowFields(
        base: base, quote: quote, window: window, fetchedAt: invocation.context.now()),
      figures: LedgerStatsFigures(
        buy: .init(series.buy), sell: .init(series.sell), all: .init(series.all)))
    try invocation.write(CommandOutput(document: document) { Self.text(document, $0) })
    return .success
  }

  /// `ledger stats` as text: a chart and its figures for each side.
  static func text(_ stats: LedgerStatsDocument, _ layout: TextLayout) -> String {
    let (base, quote, style) = (stats.window.base, stats.window.quote, layout.style)
    var lines = [
      style.bold("\(base)/\(quote) from your ledger"),
      style.dim(
        "daily averages, \(quote) per \(base), \(describe(stats.window.span))"),
    ]
    let sides = [("You bought \(base)", stats.figures.buy), ("You sold \(base)", stats.figures.sell)]
    for (title, side) in sides {
      lines.append("")
      guard let summary = side.stats else {
        lines.append(style.bold(title) + style.dim(": no exchanges in these days"))
        continue
      }
      let counted = side.points.count == 1 ? "1 day" : "\(side.points.count) days"
      lines.append(style.bold(title) + style.dim(" (\(counted) with exchanges)"))
      lines.append(
        contentsOf: LineChart.render(
          points: side.points.map { RatePoint(date: $0.date, rate: $0.rate) },
          width: layout.width, height: 8, ascii: layout.ascii))
      var figures = "max \(RateFormat.rate(summary.max))   mean \(RateFormat.rate(summary.mean))"
      figures += "   stddev " + (summary.stddev.map(RateFormat.rate) ?? "— (one day)")
      lines.append("  " + figures)
    }
    return lines.joined(separator: "\n")
  }
}

/// What `ledger rate --json` and `ledger stats --json` say of the pair and the days read,
/// encoded among each document's own keys.
struct LedgerWindowFields: Encodable, Sendable {
  var source = RateSource.ledger
  var base: CurrencyCode
  var quote: CurrencyCode
  var fetchedAt: Date
  var stale = false
  var days: Int
  var firstDay: Day
  var lastDay: Day

  init(base: CurrencyCode, quote: CurrencyCode, window: ClosedRange<Day>, fetchedAt: Date) {
    self.base = base
    self.quote = quote
    self.fetchedAt = fetchedAt
    days = window.lowerBound.distance(to: window.upperBound) + 1
    firstDay = window.lowerBound
    lastDay = window.upperBound
  }

  /// The days read.
  var span: ClosedRange<Day> { firstDay...lastDay }
}

/// A ledger document: the pair and the days read (``LedgerWindowFields``) among the keys of
/// its own figures.
struct LedgerDocument<Figures: Encodable & Sendable>: Encodable, Sendable {
  var window: LedgerWindowFields
  var figures: Figures

  func encode(to encoder: any Encoder) throws {
    try window.encode(to: encoder)
    try figures.encode(to: encoder)
  }
}

/// `ledger rate --json`.
typealias LedgerRateDocument = LedgerDocument<LedgerRateFigures>

/// What `ledger rate --json` says of the rate.
struct LedgerRateFigures: Encodable, Sendable {
  @NullEncoded var buy: Double?
  var buyCount: Int
  @NullEncoded var sell: Double?
  var sellCount: Int
  var midpoint: Double
  /// The rate to use: the midpoint, which is the only side's rate when only one exists.
  var rate: Double
  /// `both`, `buy` or `sell`: which sides had exchanges.
  var sides: String
}

/// `ledger stats --json`.
typealias LedgerStatsDocument = LedgerDocument<LedgerStatsFigures>

/// What `ledger stats --json` says of each side.
struct LedgerStatsFigures: Encodable, Sendable {
  /// One side's daily series and its summary.
  struct Side: Encodable {
    struct Point: Encodable {
      var date: Day
      var rate: Double
    }
    struct Summary: Encodable {
      var max: Double
      var mean: Double
      /// Sample standard deviation (n − 1); `null` for one day.
      @NullEncoded var stddev: Double?
      var count: Int
    }
    var points: [Point]
    @NullEncoded var stats: Summary? = nil

    init(_ points: [RatePoint]) {
      // Daily averages are computed figures: written at ``Figure/ratio(_:)``'s precision.
      self.points = points.map { Point(date: $0.date, rate: Figure.ratio($0.rate)) }
      let rates = self.points.map(\.rate)
      if let max = rates.max(), let mean = Statistics.mean(rates) {
        stats = Summary(
          max: max, mean: Figure.ratio(mean),
          stddev: Figure.ratio(Statistics.sampleStandardDeviation(rates)), count: rates.count)
      }
    }
  }
  var buy: Side
  var sell: Side
  var all: Side
}
