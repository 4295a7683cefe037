import RateCore

extension LedgerCommand {
  /// `rates ledger stats <BASE> <QUOTE> [--days N]`.
  struct Stats: RatesCommand {
    static let name = "stats"
    static let abstract =
      "daily average buy and sell rates as charts, with max, mean and sample standard deviation"
    static let arguments = LedgerCommand.pairArguments
    static let days = LedgerCommand.daysOption(default: 30)
    static let options = [days]
    static let examples = ["rates ledger stats USD-LBP --days 90"]

    let base: String
    let quote: String
    let days: Int

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      days = try scanner.integerOrDefault(Self.days)
      (base, quote) = try LedgerCommand.readPair(&scanner)
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try await LedgerCommand(action: .stats(base: base, quote: quote, days: days)).run(invocation)
    }
  }
}
