import RateCore

extension LedgerCommand {
  /// `rates ledger export [--csv]`, or `--format ledger|beancount` for a journal.
  struct Export: RatesCommand {
    static let name = "export"
    static let abstract =
      "the whole ledger as CSV on stdout, oldest first; or as an hledger/ledger/beancount journal"
    /// The journals `--format` writes.
    static let journals: [OutputFormat] = [.ledger, .beancount]
    static let exportFormats = Set(journals)
    struct Declared: Declarations {
      let csv = Option.flag("--csv", help: "write CSV (the default)")
      let currency = Option.option(
        "--in", value: "CUR",
        help: "the ECB currency of the price directives (default: RATES_CURRENCY or USD)",
        completion: .local([.currencies]))
    }
    static let exclusions = [
      OptionRule(OptionUse(declared.csv), excludes: [], formats: journals)
    ]
    static let requirements = [
      OptionRule(OptionUse(declared.currency), needs: [], formats: journals)
    ]
    static let discussion =
      LedgerCommand.csvColumns + """

        With --format ledger or beancount: each entry as a transaction (an exchange's received
        amount at the paid amount as its total price, '@@'; money paid beyond what was held as a
        transaction from Equity:PaidFromOutside), and a price directive in --in for every
        currency and coin on every day from the first entry to today, the prices 'rates
        portfolio' uses: the tools' market value of Assets on a day equals 'rates portfolio
        --as-of' that day.
        """
    static let examples = [
      "rates ledger export > ledger.csv",
      "rates ledger export --format ledger --in USD > rates.journal",
      "rates ledger export --format beancount > rates.beancount",
    ]
    static let noJSON: String? =
      "it writes CSV or a journal; 'rates ledger list --json' gives the entries as JSON"

    let currency: CurrencyCode?
    let defaultCurrency: CurrencyCode

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      // CSV is the default: `--csv` only says so (and is refused with a journal).
      _ = try scanner.read(Self.declared.csv)
      currency = try scanner.read(Self.declared.currency).map { CurrencyCode($0) }
      defaultCurrency = CurrencyCode(defaults.currency)
    }

    /// The journal syntax `--format` asks for, or nil for CSV, the default (the parser has
    /// refused `--csv` with a journal, and `--in` without one, by ``exclusions`` and
    /// ``requirements``).
    func journal(_ invocation: Invocation) -> PriceExport.Journal? {
      switch invocation.options.format {
      case .ledger: return .ledger
      case .beancount: return .beancount
      default: return nil
      }
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      guard let journal = journal(invocation) else {
        return try LedgerCommand.export(invocation)
      }
      let code = currency ?? defaultCurrency
      guard code.isECB else {
        throw UsageError.invalid(
          "--in \(LedgerInput.quoted(code.text)) is not an ECB currency: price the journal in USD, "
            + "EUR or another ECB currency ('rates currencies')")
      }
      let entries = try invocation.userData().ledger.read().entries
      let today = Day(containing: invocation.context.now())
      let pricer = PortfolioPricer(desk: invocation.desk, currency: code, entries: entries)
      let prices = try await pricer.prices(
        for: PortfolioJournal.pricesNeeded(entries, currency: code, through: today))
      let text = try PortfolioJournal(
        entries: entries, prices: prices.available, currency: code, journal: journal
      ).text()
      invocation.context.writeOut(text)
      return .success
    }
  }

  /// The CSV format `export` writes and `import` reads.
  static let csvColumns = """
    CSV columns, in this order: id, date, side, amount, currency, counter_amount,
    counter_currency, rate, with, note, role, import_id (role and import_id only on entries
    imported from an exchange: fee or income, and its id; RFC 4180, CR LF line ends; import
    also reads LF and files without the last two columns, ignores id and rate, and gives new
    ids).
    """
}
