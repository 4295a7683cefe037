import RateCore

extension LedgerCommand {
  /// `rates ledger [list]`: the exchanges, newest first, filtered.
  struct List: RatesCommand {
    static let name = "list"
    static let aliases = ["ls"]
    static let abstract = "your exchanges, newest first, each with the rate it implies"
    static let exportFormats = priceExportFormats
    struct Declared: Declarations {
      let pair = Option.option(
        "--pair", value: "BASE-QUOTE",
        help: "only exchanges between these two, with rates as QUOTE per BASE (default: every "
          + "exchange, rated in its own direction)",
        completion: .local([.pairs]))
      let days = LedgerCommand.allDaysOption
      let counterparty = Option.option(
        "--with", value: "NAME", help: "only exchanges with NAME, in any case")
      let anyone = Option.flag(
        "--with-anyone", help: "only exchanges that name someone")
    }
    static let optionGroups = [OptionGroup(declared.counterparty, declared.anyone)]
    static let discussion = """
      With --format csv the exchanges are written as 'rates ledger export' writes them; with
      --format ledger or beancount, one price directive per exchange, at the rate it implied.
      """
    static let examples = [
      "rates ledger",
      "rates ledger list --pair USD-LBP --days 30",
      "rates ledger --with-anyone --json",
    ]

    let filter: ListFilter

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      let pairText = try scanner.read(Self.declared.pair)
      let days = try scanner.read(Self.declared.days)
      let withName = try scanner.read(Self.declared.counterparty)
      let withAnyone = try scanner.read(Self.declared.anyone)
      var filter = ListFilter(pair: nil, days: days, counterparty: withAnyone ? .anyone : .all)
      if let pairText {
        guard let name = PairName(pairText) else {
          throw UsageError.invalidValue(
            option: "--pair", value: TerminalText.sanitize(pairText),
            expected: "two currency codes such as USD-LBP")
        }
        filter.pair = try LedgerCommand.check { () throws(LedgerInput.Invalid) in
          try LedgerInput.pair(name.base, name.quote)
        }
      }
      if let withName {
        let name = try LedgerCommand.check { () throws(LedgerInput.Invalid) in
          try LedgerInput.text(withName, what: "--with name")
        }
        guard let name else { throw UsageError.missingValue(option: "--with") }
        filter.counterparty = .named(name)
      }
      self.filter = filter
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try LedgerCommand.list(filter, invocation)
    }
  }
}
