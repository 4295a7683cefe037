import RateCore

extension LedgerCommand {
  /// `rates ledger stats <BASE> <QUOTE> [--days N]`.
  struct Stats: LedgerPairCommand {
    static let name = "stats"
    static let abstract =
      "daily average buy and sell rates as charts, with max, mean and sample standard deviation"
    struct Declared: LedgerPairDeclarations {
      let base = LedgerCommand.pairBase
      let quote = LedgerCommand.pairQuote
      let days = LedgerCommand.daysOption(default: 30)
    }
    static let examples = ["rates ledger stats USD-LBP --days 90"]

    let base: CurrencyCode
    let quote: CurrencyCode
    let days: Int

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try LedgerCommand.stats(base: base, quote: quote, days: days, invocation)
    }
  }
}
