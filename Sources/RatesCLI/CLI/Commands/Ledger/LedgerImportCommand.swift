import RateCore

extension LedgerCommand {
  /// `rates ledger import [--from FORMAT] [--skip-unknown] [--dry-run] FILE...`.
  struct Import: RatesCommand {
    static let name = "import"
    static let abstract =
      "add the entries of CSV files: the ledger's own (as export writes it) or an exchange's "
      + "export; every row is checked first, and one bad row imports nothing"
    struct Declared: Declarations {
      let fileArgument = Argument.repeating(
        "FILE", help: "the files to read (- for standard input, with --from rates)", completion: .files)
      let from = Option.option(
        "--from", value: "FORMAT",
        help: "the file's layout: rates (the default, as export writes it), auto (guess from the "
          + "header), or an exchange's export: coinbase, coinbase-exchange, kraken (trades.csv), "
          + "kraken-ledgers, binance")
      let skipUnknown = Option.flag(
        "--skip-unknown", help: "import the rows that can be mapped and list the others")
      let dryRun = Option.flag(
        "--dry-run", help: "show what would be added; write nothing")
    }
    static let discussion = LedgerCommand.csvColumns + LedgerCommand.exchangeDiscussion
    static let examples = [
      "rates ledger import ledger.csv",
      "rates ledger import --from kraken-ledgers --dry-run ledgers.csv",
      "rates ledger import --from auto --dry-run Coinbase-Transactions.csv",
    ]

    let paths: [String]
    let format: String
    let skipUnknown: Bool
    let dryRun: Bool

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      format = try scanner.read(Self.declared.from) ?? "rates"
      guard LedgerCommand.importFormats.contains(format) else {
        throw UsageError.invalidValue(
          option: "--from", value: format, expected: LedgerCommand.importFormats.joined(separator: ", "))
      }
      skipUnknown = try scanner.read(Self.declared.skipUnknown)
      dryRun = try scanner.read(Self.declared.dryRun)
      paths = try scanner.read(Self.declared.fileArgument)
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      if format == "auto", paths.count == 1, paths[0] != "-",
        let text = String(data: try LedgerCommand.readImport(paths[0]), encoding: .utf8),
        LedgerCSV.isOwnDocument(text)
      {
        invocation.err("note: \(paths[0]): read as the ledger's own CSV (--from rates)")
        return try LedgerCommand.importFile(paths[0], dryRun: dryRun, invocation)
      }
      guard format != "rates" else {
        guard paths.count == 1, !skipUnknown else {
          throw UsageError.invalid(
            "--from rates reads one file, without --skip-unknown (every line of the ledger's "
              + "own CSV must be right); both are for exchange exports")
        }
        return try LedgerCommand.importFile(paths[0], dryRun: dryRun, invocation)
      }
      let request = ExchangeImportRequest(
        paths: paths, exchange: ExchangeFormat(rawValue: format), skipUnknown: skipUnknown,
        dryRun: dryRun)
      return try await LedgerCommand.importExchange(request, invocation)
    }
  }

  /// The import formats `--from` takes.
  static let importFormats = ["rates", "auto"] + ExchangeFormat.allCases.map(\.rawValue)

  static let exchangeDiscussion = """


    Exchange exports (--from coinbase, coinbase-exchange, kraken, kraken-ledgers, binance, or
    auto): each layout the exchange has written is recognised by its header (a preamble, a BOM,
    quoting and CR LF are accepted). A trade becomes one exchange entry (what was paid for what
    was received), each fee a withdrawal marked fee in the currency it was paid in, a reward or
    staking payout a deposit marked income, deposits and withdrawals transfers; moves between
    your own accounts (staking, wallets) add nothing. Every entry keeps the exchange's
    transaction id (or a digest of its row), so importing a file again adds only what is new.
    A row that cannot be mapped is named (file and line) and nothing is written unless
    --skip-unknown is given. Amounts keep every digit the ledger can hold. See the guide's
    'Importing exchange exports' for the mapping rules.
    """
}
