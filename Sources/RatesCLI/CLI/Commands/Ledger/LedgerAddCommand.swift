import RateCore

extension LedgerCommand {
  /// `rates ledger add <AMOUNT> <CURRENCY> <FOR-AMOUNT> <FOR-CURRENCY> (--sell | --buy)`.
  struct Add: RatesCommand {
    static let name = "add"
    static let abstract =
      "record an exchange: 'add 100 USD 8950000 LBP --sell' means you sold 100 USD for "
      + "8,950,000 LBP; with --buy you bought 100 USD and paid 8,950,000 LBP; "
      + "'add 0.5 BTC --deposit' records what came in without an exchange"
    struct Declared: Declarations {
      let amount = Argument.required(
        "AMOUNT",
        help: "more than 0 and at most 1e15: 1500, 1,500.25 or 1e3 ('.' for decimals, ',' "
          + "only between groups of three digits)")
      let currency = Argument.required(
        "CURRENCY", help: "any three-letter code (USD, LBP, NGN, ARS)",
        completion: .local([.currencies]))
      let forAmount = Argument.optional(
        "FOR-AMOUNT",
        help: "what it was exchanged for, written like AMOUNT (not with "
          + "--deposit or --withdraw)", missingName: "amount")
      let forCurrency = Argument.optional(
        "FOR-CURRENCY", help: "its currency, not the same as CURRENCY",
        completion: .local([.currencies]), missingName: "currency")
      let sell = Option.flag("--sell", help: "you sold the first amount")
      let buy = Option.flag("--buy", help: "you bought the first amount")
      let deposit = Option.flag(
        "--deposit",
        help: "AMOUNT CURRENCY came in without an exchange (an opening balance, a "
          + "transfer in)")
      let withdraw = Option.flag(
        "--withdraw", help: "AMOUNT CURRENCY went out without an exchange; never more than held")
      let cost = Option.amountAndCode(
        "--cost", value: "AMOUNT CUR",
        help: "what a deposit cost, such as 20000 USD (or \"20000 USD\"; default: its value that day)",
        isCode: { (try? LedgerInput.currency($0)) != nil })
      let counterparty = Option.option(
        "--with", value: "NAME", help: "who the exchange was with")
      let date = Option.dayText(
        "--date",
        help: "the day of the exchange (default today); at most one day after today (time zones "
          + "east of UTC), not before 1990")
      let note = Option.option(
        "--note", value: "TEXT", help: "a note; notes and names keep at most 200 characters")
    }
    /// One of the four is required; shown as two groups so the usage line wraps, and
    /// excluding each other across them.
    static let optionGroups = [
      OptionGroup(declared.sell, declared.buy), OptionGroup(declared.deposit, declared.withdraw),
    ]
    static let exclusions = [declared.sell, declared.buy].map { side in
      OptionRule(OptionUse(side), excludes: [OptionUse(declared.deposit), OptionUse(declared.withdraw)])
    }
    static let requirements = [
      OptionRule(
        OptionUse(declared.cost), needs: [OptionUse(declared.deposit)], reason: "an exchange's cost is its FOR-AMOUNT")
    ]
    static let examples = [
      "rates ledger add 100 USD 8950000 LBP --sell --with \"Abu Ali\" --note \"cash, Hamra\"",
      "rates ledger add 50 EUR 55 USD --buy --date yesterday",
      "rates ledger add 0.5 BTC --deposit --cost 20000 USD --date 2026-03-02",
    ]

    let entry: NewEntry

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      let sides = [
        try scanner.read(Self.declared.sell), try scanner.read(Self.declared.buy),
        try scanner.read(Self.declared.deposit),
        try scanner.read(Self.declared.withdraw),
      ]
      let costText = try scanner.read(Self.declared.cost)
      let withName = try scanner.read(Self.declared.counterparty)
      let date = try scanner.read(Self.declared.date)
      let noteText = try scanner.read(Self.declared.note)
      // The parser has refused two of them (optionGroups, exclusions).
      guard sides.contains(true) else {
        throw UsageError.invalid(
          "say which way the exchange went: --sell (you sold the first amount) or --buy "
            + "(you bought it); or --deposit / --withdraw for money moved without an exchange")
      }
      let transfer: LedgerEntry.Transfer? = sides[2] ? .deposit : sides[3] ? .withdrawal : nil
      var words = [try scanner.read(Self.declared.amount), try scanner.read(Self.declared.currency)]
      // An exchange requires the other two as well.
      for counter in [Self.declared.forAmount, Self.declared.forCurrency] where transfer == nil {
        words.append(try scanner.require(counter))
      }
      entry = try LedgerCommand.check { () throws(LedgerInput.Invalid) in
        var new: NewEntry
        if let transfer {
          new = try Self.transferEntry(transfer, words: words, cost: costText)
        } else {
          new = try Self.exchangeEntry(side: sides[0] ? .sell : .buy, words: words)
        }
        new.counterparty = try withName.flatMap { text throws(LedgerInput.Invalid) in
          try LedgerInput.text(text, what: "--with name")
        }
        new.note = try noteText.flatMap { text throws(LedgerInput.Invalid) in
          try LedgerInput.text(text, what: "note")
        }
        new.date = date
        return new
      }
    }

    static func exchangeEntry(side: LedgerEntry.Side, words: [String]) throws(LedgerInput.Invalid)
      -> NewEntry
    {
      let (currency, counterCurrency) = try LedgerInput.pair(words[1], words[3])
      return NewEntry(
        side: side, amount: try LedgerInput.amount(words[0]), currency: currency,
        counterAmount: try LedgerInput.amount(words[2]), counterCurrency: counterCurrency)
    }

    /// A deposit or withdrawal; `cost` is `"20000 USD"` (or `20000USD`).
    static func transferEntry(_ kind: LedgerEntry.Transfer, words: [String], cost: String?)
      throws(LedgerInput.Invalid) -> NewEntry
    {
      var new = NewEntry(
        transfer: kind, side: kind == .deposit ? .buy : .sell,
        amount: try LedgerInput.amount(words[0]), currency: try LedgerInput.currency(words[1]),
        counterAmount: 0, counterCurrency: "")
      if let cost {
        (new.counterAmount, new.counterCurrency) = try LedgerInput.cost(cost)
      }
      return new
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try LedgerCommand.add(entry, invocation)
    }
  }
}
