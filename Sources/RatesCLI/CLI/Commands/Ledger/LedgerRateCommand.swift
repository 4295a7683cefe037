import RateCore

extension LedgerCommand {
  /// `rates ledger rate <BASE> <QUOTE> [--days N]`.
  struct Rate: LedgerPairCommand {
    static let name = "rate"
    static let abstract =
      "the amount-weighted buy and sell rates of the last N days, and their midpoint"
    struct Declared: LedgerPairDeclarations {
      let base = LedgerCommand.pairBase
      let quote = LedgerCommand.pairQuote
      let days = LedgerCommand.daysOption(
        default: 3, note: ", the usual 'rate of the last three days'")
    }
    static let examples = [
      "rates ledger rate USD LBP", "rates ledger rate USD-LBP --days 7 --json",
    ]

    let base: CurrencyCode
    let quote: CurrencyCode
    let days: Int

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try LedgerCommand.rate(base: base, quote: quote, days: days, invocation)
    }
  }
}
