import RateCore

extension LedgerCommand {
  /// `rates ledger export --csv`.
  struct Export: RatesCommand {
    static let name = "export"
    static let abstract = "the whole ledger as CSV on stdout, oldest first"
    static let csv = OptionSpec.flag(
      "--csv", help: "write CSV; required, as it is the only format for now")
    static let options = [csv]
    static let optionGroups = [OptionGroup(options: [csv], isRequired: true)]
    static let discussion = LedgerCommand.csvColumns
    static let examples = ["rates ledger export --csv > ledger.csv"]
    static let noJSON: String? =
      "it writes CSV; 'rates ledger list --json' gives the entries as JSON"

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      guard try scanner.flag(Self.csv) else {
        throw UsageError.invalid(
          "export needs --csv, the only format for now: rates ledger export --csv > ledger.csv")
      }
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try await LedgerCommand(action: .export).run(invocation)
    }
  }

  /// The CSV format `export` writes and `import` reads.
  static let csvColumns = """
    CSV columns, in this order: id, date, side, amount, currency, counter_amount,
    counter_currency, rate, with, note (RFC 4180, CR LF line ends; import also reads LF,
    ignores id and rate, and gives new ids).
    """
}
