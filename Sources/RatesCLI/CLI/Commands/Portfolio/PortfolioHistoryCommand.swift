import RateCore

extension PortfolioCommand {
  /// `rates portfolio history [--days N | --from D [--to D]] [--in CUR] [--chart]`: the total
  /// value per day, from the stored daily rates.
  struct History: RatesCommand {
    static let name = "history"
    static let abstract = "the total value of your ledger's holdings per day, as a sparkline or a chart"
    static let exportFormats: Set<OutputFormat> = [.csv]
    struct Declared: Declarations {
      let currency = PortfolioCommand.currency
      let days = Option.integer("--days", value: "N", in: 1...365, default: 30) {
        "how many days, \($0.rangeAndDefault))"
      }
      let from = HistorySpan.from
      let to = HistorySpan.to
      let chart = Option.flag("--chart", help: "a multi-row line chart")
    }
    static let exclusions = HistorySpan.exclusions(days: declared.days)
    static let requirements = HistorySpan.requirements
    static let discussion = """
      Each day: the quantities held at its end times that day's prices ('rates portfolio
      --as-of' that day). A day on which something held has no price is a gap, drawn blank
      and null in --json; nothing is filled in. Each currency or coin is fetched once for
      the whole range (the day store answers the days it has).
      """
    static let examples = [
      "rates portfolio history --days 90 --chart", "rates portfolio history --from 2026-01-05 --in EUR",
    ]

    let currencyCode: CurrencyCode
    let span: HistorySpan
    let chart: Bool

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      currencyCode = try PortfolioCommand.readCurrency(&scanner, defaults: defaults)
      span = try HistorySpan.parse(&scanner, days: Self.declared.days)
      chart = try scanner.read(Self.declared.chart)
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      let now = invocation.context.now()
      let window = try span.window(today: Day(containing: now))
      let entries = try invocation.userData().ledger.read().entries
      let series = try await Self.series(
        entries, window: window, currency: currencyCode, desk: invocation.desk, fetchedAt: now)
      let csv = CSV.document(
        header: ["date", "value", "quote"],
        rows: series.chartPoints.map {
          [
            $0.date.description, DecimalText.shortest(Figure.money($0.rate, code: currencyCode)) ?? "",
            currencyCode.text,
          ]
        })
      try invocation.write(
        CommandOutput(
          document: Document(series, window: window), csv: { csv },
          text: { lines(series, window: window, $0).joined(separator: "\n") }))
      return .success
    }

    /// The total value of `entries`' holdings in `currency` on each day of `window`, priced
    /// by the day store (each code fetched once for the range it lacks); the command's and
    /// the home screen's portfolio detail.
    static func series(
      _ entries: [LedgerEntry], window: ClosedRange<Day>, currency: CurrencyCode, desk: RateDesk,
      fetchedAt: Date
    ) async throws -> RateSeries {
      let holdings = try PortfolioHistory.holdings(entries, window: window)
      let pricer = PortfolioPricer(desk: desk, currency: currency, entries: entries)
      let prices = try await pricer.prices(for: PortfolioHistory.pricesNeeded(holdings))
      return PortfolioHistory.series(
        holdings, currency: currency, prices: prices, fetchedAt: fetchedAt)
    }

    /// The change between two values as they are shown (and as `--json` writes them), so
    /// that `10,869.97 USD → 10,784.45 USD` says `-85.52`, never `-85.51`.
    static func shownChange(from first: Double, to last: Double, code: CurrencyCode) -> Double {
      let (from, to) = (Figure.money(first, code: code), Figure.money(last, code: code))
      return Figure.money(to - from, code: code, scale: max(abs(from), abs(to)))
    }

    func lines(_ series: RateSeries, window: ClosedRange<Day>, _ layout: TextLayout) -> [String] {
      let ascii = layout.ascii
      var lines = ["Portfolio value in \(currencyCode), \(window.lowerBound) to \(window.upperBound)"]
      guard let first = series.points.first, let last = series.points.last else {
        return lines + ["No value on any of these days: nothing held, or no prices."]
      }
      let width = max(20, layout.width)
      if chart {
        lines += [""] + LineChart.render(points: series.chartPoints, width: width, height: 12, ascii: ascii)
      } else {
        lines.append("  " + Sparkline.render(series, width: width - 4, ascii: ascii))
      }
      let change = Self.shownChange(from: first.rate, to: last.rate, code: currencyCode)
      let arrow = ascii ? "->" : "→"
      lines.append(
        "  \(first.date) \(RateFormat.money(first.rate, code: currencyCode.text)) \(arrow) \(last.date) "
          + "\(RateFormat.money(last.rate, code: currencyCode.text)) "
          + layout.style.change(RateFormat.signedMoney(change, code: currencyCode.text), value: change))
      if !series.gaps.isEmpty {
        lines.append(layout.style.dim("  \(series.gaps.count) days without a price for something held (blank)"))
      }
      return lines
    }

    /// `rates portfolio history --json`.
    struct Document: Encodable {
      struct Point: Encodable {
        var date: Day
        @NullEncoded var value: Double?
      }
      var quote: CurrencyCode
      var source = RateSource.portfolio
      var firstDay: Day
      var lastDay: Day
      var fetchedAt: Date
      var points: [Point]

      init(_ series: RateSeries, window: ClosedRange<Day>) {
        quote = series.quote
        firstDay = window.lowerBound
        lastDay = window.upperBound
        fetchedAt = series.fetchedAt
        points = series.chartPoints.map {
          Point(date: $0.date, value: $0.rate.isFinite ? Figure.money($0.rate, code: series.quote) : nil)
        }
      }
    }
  }
}
