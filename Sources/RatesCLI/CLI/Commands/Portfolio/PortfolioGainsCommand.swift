import RateCore

extension PortfolioCommand {
  /// `rates portfolio gains [--year YEAR | --from D [--to D]] [--in CUR] [--method …]`: every
  /// disposal of a period with its proceeds, cost basis, matched acquisitions, gain and
  /// holding period; the income received; the totals per asset and for the period.
  struct Gains: RatesCommand {
    static let name = "gains"
    static let abstract = "realized gains of a tax year or period, disposal by disposal, and income"
    static let exportFormats: Set<OutputFormat> = [.csv]
    struct Declared: Declarations {
      let year = Option.integer("--year", value: "YEAR", in: 1970...9999) {
        "a calendar year, \($0.rangeText): 1 January to 31 December (default: this year, to today)"
      }
      let from = HistorySpan.from
      let to = HistorySpan.to
      let currency = PortfolioCommand.currency
      let method = PortfolioCommand.method
    }
    static let exclusions = [
      OptionRule(
        OptionUse(declared.year), excludes: [OptionUse(HistorySpan.from), OptionUse(HistorySpan.to)], reason: "pick one"
      )
    ]
    static let requirements = HistorySpan.requirements
    static let discussion = """
      A disposal is the paid side of an exchange (a sale, a purchase paid in a coin, a
      conversion) and a fee paid in a currency or coin other than the one you value in;
      its cost is taken by --method from what was acquired before it, at each acquisition's
      own day's price. Same-day entries count in the order recorded. A fee of a purchase
      paid in your currency is added to the cost of what it bought; any other fee of an
      exchange is taken from the proceeds. Withdrawals and deposits are transfers, not
      disposals: a deposit takes back the lots a withdrawal of the same coin took out, with
      their cost and days. A lot held more than a year (disposed of after the day's
      anniversary) is long, else short; a disposal matched to both is two rows. Income
      (rewards, staking) is listed apart at its value on receipt; it becomes the cost of
      what was received. Exits 64 for a currency no source prices, 66 when a price is missing.
      The matching rules in full: docs/guide.md, 'rates portfolio gains'.
      """
    static let examples = [
      "rates portfolio gains", "rates portfolio gains --year 2025 --in EUR --method hifo",
      "rates portfolio gains --from 2026-04-06 --format csv > gains.csv",
    ]

    let currencyCode: CurrencyCode
    let method: PortfolioMethod
    let yearNumber: Int?
    /// `--from [--to]`, nil for a year.
    let range: HistorySpan?

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      yearNumber = try scanner.read(Self.declared.year)
      range = try HistorySpan.parseRange(&scanner)
      currencyCode = try PortfolioCommand.readCurrency(&scanner, defaults: defaults)
      method = try PortfolioCommand.readMethod(&scanner)
    }

    /// The days asked for, ending today at the latest.
    func period(today: Day) throws(UsageError) -> ClosedRange<Day> {
      if let range { return try range.window(today: today) }
      let thisYear = today.year
      let year = yearNumber ?? thisYear
      guard year <= thisYear, let first = Day(year: year, month: 1, day: 1),
        let last = Day(year: year, month: 12, day: 31)
      else {
        throw UsageError.invalid("--year \(year) has not begun (today is \(today)): give \(thisYear) or earlier")
      }
      return first...min(last, today)
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      let period = try period(today: Day(containing: invocation.context.now()))
      let entries = try invocation.userData().ledger.read().entries
      let pricer = PortfolioPricer(desk: invocation.desk, currency: currencyCode, entries: entries)
      let needed = try GainsReport.pricesNeeded(
        entries: entries, through: period.upperBound, currency: currencyCode, method: method, rank: pricer.rank)
      let prices = try await PortfolioCommand.prices(needed, pricer: pricer, entries: entries)
      let report = try GainsReport.build(
        entries: entries, period: period, currency: currencyCode, method: method, rank: pricer.rank,
        price: prices.price)
      let stale = needed.contains { code, days in days.contains { (try? prices.price(code, $0))?.stale == true } }
      let view = GainsView(report: report, entries: entries)
      let fetchedAt = invocation.context.now()
      // Each form built only when it is the one asked for (a ledger of years has thousands of rows).
      try invocation.write(
        CommandOutput(
          json: {
            try CommandOutput.encoded(GainsDocument(report, notes: view.notes, fetchedAt: fetchedAt, stale: stale))
          },
          csv: { report.csv }, body: .rendered(pages: false) { view.lines($0).joined(separator: "\n") }))
      return .success
    }
  }
}
