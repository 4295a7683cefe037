import RateCore

extension LedgerCommand {
  /// `rates ledger add <AMOUNT> <CURRENCY> <FOR-AMOUNT> <FOR-CURRENCY> (--sell | --buy)`.
  struct Add: RatesCommand {
    static let name = "add"
    static let abstract =
      "record an exchange: 'add 100 USD 8950000 LBP --sell' means you sold 100 USD for "
      + "8,950,000 LBP; with --buy you bought 100 USD and paid 8,950,000 LBP"
    static let arguments = [
      ArgumentSpec(
        name: "AMOUNT",
        help: "more than 0 and at most 1e15: 1500, 1,500.25 or 1e3 ('.' for decimals, ',' "
          + "only between groups of three digits)"),
      ArgumentSpec(
        name: "CURRENCY", help: "any three-letter code (USD, LBP, NGN, ARS)",
        completion: .local([.currencies])),
      ArgumentSpec(name: "FOR-AMOUNT", help: "what it was exchanged for, written like AMOUNT"),
      ArgumentSpec(
        name: "FOR-CURRENCY", help: "its currency, not the same as CURRENCY",
        completion: .local([.currencies])),
    ]
    static let sell = OptionSpec.flag("--sell", help: "you sold the first amount")
    static let buy = OptionSpec.flag("--buy", help: "you bought the first amount")
    static let counterparty = OptionSpec.option(
      "--with", value: "NAME", help: "who the exchange was with")
    static let date = OptionSpec.option(
      "--date", value: "YYYY-MM-DD",
      help: "the day of the exchange, UTC (default today; also 'today', 'yesterday'); at most "
        + "one day after today (time zones east of UTC), not before 1990")
    static let note = OptionSpec.option(
      "--note", value: "TEXT", help: "a note; notes and names keep at most 200 characters")
    static let options = [sell, buy, counterparty, date, note]
    static let optionGroups = [OptionGroup(options: [sell, buy], isRequired: true)]
    static let examples = [
      "rates ledger add 100 USD 8950000 LBP --sell --with \"Abu Ali\" --note \"cash, Hamra\"",
      "rates ledger add 50 EUR 55 USD --buy --date yesterday",
    ]

    let entry: NewEntry

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      let sell = try scanner.flag(Self.sell)
      let buy = try scanner.flag(Self.buy)
      let withName = try scanner.option(Self.counterparty)
      let date = try scanner.option(Self.date)
      let noteText = try scanner.option(Self.note)
      guard sell != buy else {
        throw UsageError.invalid(
          sell
            ? "--sell and --buy cannot be used together"
            : "say which way the exchange went: --sell (you sold the first amount) or --buy "
              + "(you bought it)")
      }
      var words: [String] = []
      for name in ["amount", "currency", "amount", "currency"] {
        guard let word = scanner.positional() else { throw UsageError.missingArgument(name) }
        words.append(word)
      }
      entry = try LedgerCommand.check { () throws(LedgerInput.Invalid) in
        let (currency, counterCurrency) = try LedgerInput.pair(words[1], words[3])
        return NewEntry(
          side: sell ? .sell : .buy, amount: try LedgerInput.amount(words[0]),
          currency: currency, counterAmount: try LedgerInput.amount(words[2]),
          counterCurrency: counterCurrency,
          counterparty: try withName.flatMap { text throws(LedgerInput.Invalid) in
            try LedgerInput.text(text, what: "--with name")
          },
          note: try noteText.flatMap { text throws(LedgerInput.Invalid) in
            try LedgerInput.text(text, what: "note")
          },
          date: date)
      }
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try await LedgerCommand(action: .add(entry)).run(invocation)
    }
  }
}
