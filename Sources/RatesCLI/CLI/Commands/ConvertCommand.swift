import RateCore

/// `rates convert <AMOUNT> <FROM> <TO>[,<TO>...]`: a currency calculator.
struct ConvertCommand: RatesCommand {
  static let name = "convert"
  static let abstract = "convert an amount between currencies and coins"
  struct Declared: Declarations {
    let amountArgument = Argument.required(
      "AMOUNT", help: "1500, 1,500.25 or 1e3 (',' only between thousands)")
    let fromArgument = Argument.required(
      "FROM", help: "a currency code, coin symbol or coin id (poundtoken)",
      completion: .local([.currencies, .coins]))
    let toArgument = Argument.required(
      "TO", help: "currency codes or coin symbols; several targets separated by commas",
      isCommaList: true, completion: .local([.currencies, .coins]))
    let date = Option.day(
      "--date",
      help: "use that day's rate (any day the provider covers; ECB: the working day on or before "
        + "it, from 1999-01-04)")
    let ledger = Option.flag(
      "--ledger",
      help: "use the street rate of your own exchanges: the 3-day average to the last day you exchanged the pair")
  }
  static let exclusions = [OptionRule(OptionUse(declared.date), excludes: [OptionUse(declared.ledger)])]
  static let discussion = """
    Fiat to fiat uses ECB reference rates, anything with a coin CoinGecko; coin to coin
    goes through both coins' USD prices, fetched in the same single request. Each result
    shows the rate used, its source and its date.
    """
  static let examples = [
    "rates convert 1500 USD EUR",
    "rates convert 0.25 BTC EUR,USD,GBP",
    "rates convert 100 EUR GBP --date 2026-01-15",
    "rates convert 100 USD LBP --ledger",
  ]

  let amount: Double
  let from: String
  let targets: [String]
  let date: Day?
  let ledger: Bool

  init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
    date = try scanner.read(Self.declared.date)
    ledger = try scanner.read(Self.declared.ledger)
    let amountText = try scanner.read(Self.declared.amountArgument)
    switch AmountParser.parse(amountText) {
    case .success(let value): amount = value
    case .failure(let problem):
      throw UsageError.invalid(problem.sentence(about: amountText))
    }
    let from = try scanner.read(Self.declared.fromArgument)
    let to = try scanner.read(Self.declared.toArgument)
    var targets: [String] = []
    for target in to.split(separator: ",").map({ $0.trimming(.whitespaces) }) {
      try PairArguments.validate(base: from, quote: target)
      let code = CurrencyCode(target).text
      if !targets.contains(code) { targets.append(code) }
    }
    guard !targets.isEmpty else { throw UsageError.missingArgument(Self.declared.toArgument.spec.errorName) }
    // A code or symbol upper-cased; a coin id (`poundtoken`, `ethereum-wormhole`) as
    // typed, resolved like every other command's (PairArguments.validate checked it).
    self.from = CurrencyCode(from, shape: .quote)?.text ?? from
    self.targets = targets
  }

  /// One result line.
  struct Conversion: Encodable {
    var quote: String
    var amount: Double
    var rate: Double
    var source: RateSource
    var rateDate: Day
    var fetchedAt: Date
    var stale: Bool
  }

  struct Document: Encodable {
    var amount: Double
    var base: String
    @NullEncoded var date: Day?
    var conversions: [Conversion]
  }

  func run(_ invocation: Invocation) async throws -> ExitCode {
    let rates: [String: SourcedRate]
    if ledger {
      rates = try ledgerRates(invocation)
    } else if let date {
      rates = try await datedRates(on: date, invocation)
    } else {
      rates = try await currentRates(invocation)
    }
    let conversions = targets.compactMap { target -> Conversion? in
      rates[target].map {
        Conversion(
          quote: target, amount: Figure.money(amount * $0.rate, code: CurrencyCode(target)), rate: $0.rate,
          source: $0.source,
          rateDate: $0.day,
          fetchedAt: $0.fetchedAt, stale: $0.staleness != nil)
      }
    }
    invocation.report(rates.values.compactMap(\.staleness).min { $0.fetchedAt < $1.fetchedAt })
    let document = Document(
      amount: amount, base: await Self.shownBase(from, invocation), date: date,
      conversions: conversions)
    try invocation.write(CommandOutput(document: document) { Self.text(document, $0) })
    return .success
  }

  /// `from` as every command shows a base (docs/json.md): a currency code, or the coin's
  /// routing name, its upper-case symbol (`solana` is `SOL`) unless that would name something
  /// else; resolved as the rates were (no request of its own), else as typed.
  static func shownBase(_ from: String, _ invocation: Invocation) async -> String {
    guard !CurrencyCode.isValid(from, shape: .quote) else { return from }
    return (try? await invocation.desk.resolver().resolve(from))?.routingName ?? from
  }

  /// The amount in bold, then one line a conversion: the result, the rate, its source and day.
  static func text(_ document: Document, _ layout: TextLayout) -> String {
    var table = TextTable(
      columns: [
        .init("", priority: TextTable.required), .init("", alignment: .right, priority: TextTable.required),
        .init("", priority: 3), .init("", alignment: .right, priority: 3), .init("", fit: .shrinks, priority: 1),
        .init("", priority: 2),
      ], showsHeader: false)
    for conversion in document.conversions {
      table.append([
        "=", RateFormat.money(conversion.amount, code: conversion.quote), "at", RateFormat.rate(conversion.rate),
        conversion.source.displayName,
        conversion.rateDate.description + (conversion.stale ? layout.style.yellow(" (stale)") : ""),
      ])
    }
    let lines =
      [layout.style.bold(RateFormat.money(document.amount, code: document.base))]
      + table.render(maxWidth: layout.width - 2, ascii: layout.ascii).map { "  " + $0 }
    return lines.joined(separator: "\n")
  }

  /// Today's rates: every leg routed, one batched call per provider.
  func currentRates(_ invocation: Invocation) async throws -> [String: SourcedRate] {
    var legs: [PairLeg] = []
    for target in targets {
      for leg in CrossRate.legs(base: from, quote: target).map(PairLeg.init) where !legs.contains(leg) {
        legs.append(leg)
      }
    }
    let routes = try legs.map { try invocation.desk.route($0.base, $0.quote) }
    let today = Day(containing: invocation.context.now())
    var byLeg: [PairLeg: SourcedRate] = [:]
    for (leg, routed) in zip(legs, try await invocation.desk.quotes(for: routes)) {
      guard let routed else { continue }
      let quote = routed.quote
      let rate = SourcedRate(
        rate: quote.rate, source: quote.source,
        day: quote.updatedAt.map { min(Day(containing: $0), today) } ?? today,
        fetchedAt: quote.fetchedAt, staleness: routed.staleness)
      byLeg[leg] = rate
    }
    var rates: [String: SourcedRate] = [:]
    for target in targets {
      rates[target] = await CrossRate.rate(base: from, quote: target) { base, quote in
        byLeg[PairLeg(base: base, quote: quote)]
      }
    }
    return rates
  }

  /// One pair to fetch.
  struct PairLeg: Hashable {
    var base: String
    var quote: String
  }

  /// The rates of `date`, from the cached daily histories.
  func datedRates(on date: Day, _ invocation: Invocation) async throws -> [String: SourcedRate] {
    if let problem = date.futureProblem(name: "--date", today: Day(containing: invocation.context.now())) {
      throw UsageError.invalid(problem)
    }
    var rates: [String: SourcedRate] = [:]
    for target in targets {
      // The one rule for a day's rate (RateCore), shared with `history --date`.
      rates[target] = try await CrossRate.rate(base: from, quote: target) { base, quote in
        let dated = try await invocation.desk.rate(base: base, quote: quote, on: date)
        return SourcedRate(
          rate: dated.point.rate, source: dated.source, day: dated.published,
          fetchedAt: dated.fetchedAt, staleness: dated.staleness)
      }
    }
    return rates
  }

  /// The street rates of the ledger (``StreetRate``, the one rule `pairs`, `watch`, the home
  /// list and the portfolio price by): the midpoint of buy and sell over the 3 days to the last
  /// day with an exchange of the pair, dated that day.
  func ledgerRates(_ invocation: Invocation) throws -> [String: SourcedRate] {
    let entries = try invocation.userData().ledger.read().entries
    let today = Day(containing: invocation.context.now())
    var rates: [String: SourcedRate] = [:]
    for target in targets {
      let street = try StreetRate.value(
        base: CurrencyCode(from), quote: CurrencyCode(target), on: today, entries: entries)
      rates[target] = SourcedRate(
        rate: Figure.ratio(street.rate.midpoint), source: .ledger, day: street.day,
        fetchedAt: invocation.context.now(), staleness: nil)
    }
    return rates
  }
}
