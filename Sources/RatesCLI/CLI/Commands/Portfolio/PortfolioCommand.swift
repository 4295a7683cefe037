import RateCore

/// `rates portfolio [show] …` and `rates portfolio history …`: what the ledger holds.
struct PortfolioCommand: CommandDeclaration {
  static let name = "portfolio"
  static let abstract = "what your ledger holds: value, cost basis, gains, value over time"
  static let subcommands: [any CommandDeclaration.Type] = [Show.self, History.self, Gains.self]
  static let defaultSubcommand: (any CommandDeclaration.Type)? = Show.self
  static let examples = [
    "rates portfolio --in EUR", "rates portfolio history --days 90 --chart",
    "rates portfolio gains --year 2025",
  ]

  /// The `--in` option of both actions.
  static let currency = Option.option(
    "--in", value: "CUR",
    help: "the currency to value in, an ECB currency (default: RATES_CURRENCY or USD)",
    completion: .local([.currencies]))

  /// The `--method` option of `show` and `gains`.
  static let method = Option.choice(
    "--method", value: "fifo|average|hifo",
    help: "how a disposal takes its cost: the oldest lots first, the average cost, or the "
      + "costliest lots first (default fifo)",
    choices: .methods, as: PortfolioMethod.self)

  /// Reads `--method` (its choices checked by the parser).
  static func readMethod(_ scanner: inout ArgumentScanner) throws(UsageError) -> PortfolioMethod {
    try scanner.read(method) ?? .fifo
  }

  /// How a method is named in a title: `FIFO`, `average cost`, `HIFO`.
  static func title(of method: PortfolioMethod) -> String {
    switch method {
    case .fifo: "FIFO"
    case .average: "average cost"
    case .hifo: "HIFO"
    }
  }

  /// A ledger entry whose currency no source prices (a cost in `XYZ` recorded before `add`
  /// refused it, or by hand): the entry and its field, rather than every `portfolio` failing
  /// on a coin that does not exist.
  struct UnpricedEntry: Error, LocalizedError {
    let message: String

    /// The first entry naming `code`; nil when none does.
    init?(code: String, provider: RateSource, entries: [LedgerEntry]) {
      let upper = CurrencyCode(code)
      guard let entry = entries.first(where: { $0.currency == upper || $0.counterCurrency == upper })
      else { return nil }
      let field =
        entry.currency == upper ? "currency" : entry.transfer == nil ? "for-currency" : "cost"
      message =
        "#\(entry.id)'s \(field) \(LedgerInput.quoted(upper.text)) is neither a currency nor a coin "
        + "\(provider.displayName) knows, so the portfolio cannot value it: fix it with "
        + "'rates ledger remove \(entry.id)' and record it again"
    }

    var errorDescription: String? { message }
  }

  /// The prices of `needed`, a coin no source knows named as the ledger entry that has it
  /// (``UnpricedEntry``).
  static func prices(_ needed: [CurrencyCode: Set<Day>], pricer: PortfolioPricer, entries: [LedgerEntry])
    async throws -> PortfolioPricer.Prices
  {
    do {
      return try await pricer.prices(for: needed)
    } catch ProviderError.coinNotFound(let provider, let coin) {
      throw UnpricedEntry(code: coin, provider: provider, entries: entries)
        ?? ProviderError.coinNotFound(provider: provider, coin: coin)
    }
  }

  /// Reads `--in`: an ECB currency.
  static func readCurrency(_ scanner: inout ArgumentScanner, defaults: CommandDefaults)
    throws(UsageError) -> CurrencyCode
  {
    let code = CurrencyCode(try scanner.read(currency) ?? defaults.currency)
    guard code.isECB else {
      throw UsageError.invalid(
        "--in \(LedgerInput.quoted(code.text)) is not an ECB currency: value a portfolio in one of "
          + "USD, EUR, GBP, JPY, CHF and the other ECB currencies ('rates currencies')")
    }
    return code
  }
}

extension PortfolioCommand {
  /// `rates portfolio [show] [--in CUR] [--as-of DAY] [--method fifo|average|hifo]`: what the ledger
  /// holds on a day, its value, cost and gains, every price with its source and date.
  struct Show: RatesCommand {
    static let name = "show"
    static let abstract = "what your ledger holds on a day: value, cost basis, realized and unrealized gains"
    static let exportFormats: Set<OutputFormat> = [.csv]
    struct Declared: Declarations {
      let currency = PortfolioCommand.currency
      let asOf = Option.dayText(
        "--as-of",
        help: "value at that day's rates, with the entries up to it (default today); from the day "
          + "store, offline from the built-in ECB snapshot where it covers")
      let method = PortfolioCommand.method
    }
    static let discussion = """
      Holdings come from 'rates ledger': each exchange moves two balances; deposits and
      withdrawals ('ledger add 0.5 BTC --deposit --cost 20000 USD') move one. Prices: ECB
      currencies from the ECB rates, coins from the coin source's daily prices, a currency
      only your ledger prices (LBP) at its street rate over the 3 days to its last exchange
      against an ECB currency. Cost basis: each acquisition at its own day's price; an
      exchange is valued by its most directly priced side. Fees are whatever the recorded
      amounts include, and an imported fee as 'rates portfolio gains' says. Same-day entries
      count in the order recorded. Paying more of a currency than you hold is money put in
      (not a debt); a withdrawal leaves at cost (no gain) and counts as money taken out at its
      day's value, and a later deposit of the same coin takes its lots back. Realized gains
      are the sums of 'rates portfolio gains'. Exits 64 for a withdrawal larger than the
      holding or a currency no source prices, 66 when a price is missing.
      """
    static let examples = [
      "rates portfolio",
      "rates portfolio --in EUR --as-of 2026-04-30 --method average",
      "rates portfolio --format csv > portfolio.csv",
    ]

    let currencyCode: CurrencyCode
    let asOfText: String?
    let method: PortfolioMethod

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      currencyCode = try PortfolioCommand.readCurrency(&scanner, defaults: defaults)
      asOfText = try scanner.read(Self.declared.asOf)
      method = try PortfolioCommand.readMethod(&scanner)
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      let today = Day(containing: invocation.context.now())
      let day = try LedgerCommand.check { () throws(LedgerInput.Invalid) in
        try asOfText.map { text throws(LedgerInput.Invalid) in try LedgerInput.day(text, today: today) }
          ?? today
      }
      let report = try await Self.report(
        entries: try invocation.userData().ledger.read().entries, asOf: min(day, today),
        currency: currencyCode, method: method, desk: invocation.desk)
      try invocation.write(
        CommandOutput(
          document: PortfolioDocument(report, fetchedAt: invocation.context.now()),
          csv: { report.csv }, text: { PortfolioView(report: report, layout: $0).lines().joined(separator: "\n") }))
      return .success
    }

    /// The portfolio of `entries` on `asOf`, each price fetched once.
    static func report(
      entries: [LedgerEntry], asOf: Day, currency: CurrencyCode, method: PortfolioMethod, desk: RateDesk
    ) async throws -> PortfolioReport {
      let pricer = PortfolioPricer(desk: desk, currency: currency, entries: entries)
      let needed = try PortfolioReport.pricesNeeded(
        entries: entries, asOf: asOf, currency: currency, method: method, rank: pricer.rank)
      let prices = try await PortfolioCommand.prices(needed, pricer: pricer, entries: entries)
      return try PortfolioReport.build(
        entries: entries, asOf: asOf, currency: currency, method: method, rank: pricer.rank,
        price: prices.price)
    }
  }
}
