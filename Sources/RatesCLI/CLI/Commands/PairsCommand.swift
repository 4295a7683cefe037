import RateCore

/// `rates pairs [list|add|remove] …`: the currency pairs the user configured.
///
/// The actions are nested types that declare, parse and run themselves; their work is in the
/// static functions below.
struct PairsCommand: CommandDeclaration {
  static let name = "pairs"
  static let abstract = "list, add or remove your currency pairs (GBP-USD, EUR-AUD, BTC-EUR)"
  static let subcommands: [any CommandDeclaration.Type] = [List.self, Add.self, Remove.self]
  static let defaultSubcommand: (any CommandDeclaration.Type)? = List.self
  static let discussion = """
    Fiat pairs use ECB reference rates (Frankfurter), pairs with a coin use CoinGecko; a
    refresh costs one request for all fiat pairs and one per quote currency for coin pairs.
    A pair no provider serves (USD-LBP) follows the street rate of your own exchanges
    (rates ledger): the 3-day average to the last day you exchanged it, without a request.
    Pairs live in $XDG_DATA_HOME/rates/pairs.json.
    """
  static let examples = [
    "rates pairs add GBP USD",
    "rates pairs add eur-aud",
    "rates pairs",
    "rates pairs remove GBP-USD",
  ]

  /// `rates pairs [list]`.
  struct List: RatesCommand {
    static let name = "list"
    static let abstract =
      "each pair, newest first, with its current rate, its change (over 24 hours for coins, "
      + "since the previous ECB working day for currencies) and a 7-day sparkline"
    static let examples = ["rates pairs"]

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {}

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try await PairsCommand.list(invocation)
    }
  }

  /// `rates pairs add <BASE> <QUOTE>`.
  struct Add: RatesCommand {
    static let name = "add"
    static let abstract = "add a pair"
    struct Declared: Declarations {
      let baseArgument = Argument.required(
        "BASE", help: "a currency code or coin; the pair may also be written BASE-QUOTE",
        completion: .local([.currencies, .coins]))
      let quoteArgument = Argument.optional(
        "QUOTE", help: "the currency it is priced in",
        completion: .local([.currencies, .coins]))
      let ledger = Option.flag(
        "--ledger",
        help: "follow the street rate of your own exchanges of the pair ('rates ledger rate'), "
          + "the default for a pair no provider serves")
    }
    static let discussion = """
      Adding refuses a currency paired with itself and unknown currencies; two currencies
      already paired (in either order) are left as they are, with a note. A pair no provider
      serves (USD LBP) is added with the street rate of your ledger when it has exchanges of
      the pair; --ledger asks for the street rate of any pair you exchanged.
      """
    static let examples = ["rates pairs add GBP USD", "rates pairs add eur-aud", "rates pairs add USD LBP"]

    let base: String
    let quote: String
    let street: Bool

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      street = try scanner.read(Self.declared.ledger)
      let pair = try PairArguments(
        parsing: &scanner, base: Self.declared.baseArgument, quote: Self.declared.quoteArgument, defaultQuote: nil)
      base = pair.base
      quote = pair.quote
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try await PairsCommand.add(base, quote, street: street, invocation)
    }
  }

  /// `rates pairs remove <BASE> <QUOTE>`.
  struct Remove: RatesCommand {
    static let name = "remove"
    static let aliases = ["rm"]
    static let abstract = "remove a pair"
    struct Declared: Declarations {
      let baseArgument = Argument.required(
        "BASE", help: "the pair's base; the pair may also be written BASE-QUOTE",
        completion: .local([.pairs]), missingName: "pair")
      let quoteArgument = Argument.optional(
        "QUOTE", help: "the pair's quote",
        completion: .local([.currencies]))
    }
    static let examples = ["rates pairs remove GBP-USD"]

    /// The pair as typed: one `BASE-QUOTE` word, or two words.
    let words: [String]

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      let base = try scanner.read(Self.declared.baseArgument)
      words = [base] + (try scanner.read(Self.declared.quoteArgument).map { [$0] } ?? [])
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try PairsCommand.remove(words, invocation)
    }
  }

  // MARK: - Add and remove

  /// `pairs add`: the pair, and whether the ledger's street rate was asked for (`--ledger`).
  static func add(_ base: String, _ quote: String, street: Bool, _ invocation: Invocation) async throws
    -> ExitCode
  {
    let store = invocation.userData().pairs
    // A pair already there, as typed, is not checked with the sources again.
    if let existing = try store.read().first(where: { $0.matches(base, quote) }) {
      return try Self.alreadyPaired(existing, invocation)
    }
    let stored = try await Self.checked(
      base: base, quote: quote, desk: invocation.desk, addedAt: invocation.context.now(),
      ledger: { try invocation.userData().ledger.read().entries }, street: street)
    let existing = try store.update { pairs -> ConfiguredPair? in
      if let existing = pairs.first(where: { $0.matches(stored.base, stored.quote) }) { return existing }
      pairs.append(stored)
      return nil
    }
    if let existing { return try Self.alreadyPaired(existing, invocation) }
    let added =
      "Added \(stored.name)" + (stored.isStreet ? ", at the street rate of your ledger" : "")
      + ". See it with 'rates pairs'."
    try invocation.write(
      CommandOutput(document: ChangeDocument(added: [stored.name], removed: [], unchanged: [])) {
        _ in added
      })
    return .success
  }

  /// Adding a pair the user has is not a failure, as for the coin lists: a note, exit 0.
  static func alreadyPaired(_ existing: ConfiguredPair, _ invocation: Invocation) throws -> ExitCode {
    invocation.err("note: \(existing.name) is already one of your pairs")
    try invocation.write(
      CommandOutput(document: ChangeDocument(added: [], removed: [], unchanged: [existing.name])) {
        _ in ""
      })
    return .success
  }

  /// The pair to store for `base`/`quote` (validated by ``PairArguments/validate(base:quote:)``):
  /// routed to a provider, a coin pair's currency priced by CoinGecko and its coin known there
  /// (an id is checked with one request, as favorites are), the coin named by its symbol or id;
  /// a street-rate pair (``StreetRate``) when `street` asks for one or no provider serves the
  /// pair, if `ledger` has exchanges of it.
  static func checked(
    base: String, quote: String, desk: RateDesk, addedAt: Date,
    ledger: () throws -> [LedgerEntry], street: Bool = false
  ) async throws -> ConfiguredPair {
    let (code, quote) = (CurrencyCode(base), CurrencyCode(quote))
    func streetPair(_ entries: [LedgerEntry]) -> ConfiguredPair? {
      guard StreetRate.isRecorded(base: code, quote: quote, entries: entries) else { return nil }
      return ConfiguredPair(base: code.text, quote: quote.text, addedAt: addedAt, source: .ledger)
    }
    if street {
      guard let pair = streetPair(try ledger()) else {
        throw LedgerQueryError.neverExchanged(base: code, quote: quote)
      }
      return pair
    }
    let route: PairRoute
    do {
      route = try PairRouter.route(base: base, quote: quote.text, forced: nil)
    } catch ProviderError.noProvider(let base, let quote) {
      // No provider: the street rate, when the ledger has one; else why there is no rate.
      guard let pair = streetPair(try ledger()) else { throw ProviderError.noProvider(base: base, quote: quote) }
      return pair
    }
    let typed = ConfiguredPair(base: code.text, quote: quote.text, addedAt: addedAt)
    // Both are ECB currencies: the sources are asked whether they serve the pair.
    guard route.provider != .frankfurter else {
      try await desk.checkServed(base: typed.base, quote: quote.text)
      return typed
    }
    guard CurrencyCodes.coinGeckoQuotes.contains(route.quote.text) else {
      throw ProviderError.invalidCurrency(provider: .provider(.coinGecko), currency: route.quote.text)
    }
    if desk.configuration.mode == .offline {
      throw UsageError.invalid("adding a coin pair checks the coin with CoinGecko: run without --offline")
    }
    let asset = try await desk.resolver().resolve(route.base)
    _ = try await desk.marketService().markets(currency: route.quote, coins: [asset])
    let symbol = asset.routingName
    return route.inverted
      ? ConfiguredPair(base: route.quote.text, quote: symbol, addedAt: addedAt)
      : ConfiguredPair(base: symbol, quote: route.quote.text, addedAt: addedAt)
  }

  /// `pairs remove`: the pair as typed, one `BASE-QUOTE` word or two words.
  static func remove(_ words: [String], _ invocation: Invocation) throws -> ExitCode {
    let typed = TerminalText.sanitize(words.joined(separator: "-").uppercased())
    let (removed, names) = try invocation.userData().pairs.update { pairs in
      let index = pairs.firstIndex { pair in
        words.count == 2 ? pair.matches(words[0], words[1]) : pair.isNamed(words[0])
      }
      return (index.map { pairs.remove(at: $0) }, pairs.map(\.name).joined(separator: ", "))
    }
    // Removing a pair you do not have is not a failure, as for the coin lists: a note, exit 0.
    guard let removed else {
      invocation.err(
        "note: \(typed) is not one of your pairs" + (names.isEmpty ? " (you have none)" : " (pairs: \(names))"))
      try invocation.write(
        CommandOutput(document: ChangeDocument(added: [], removed: [], unchanged: [typed])) { _ in "" })
      return .success
    }
    let text = "Removed \(removed.name)."
    try invocation.write(
      CommandOutput(document: ChangeDocument(added: [], removed: [removed.name], unchanged: [])) {
        _ in text
      })
    return .success
  }

  // MARK: - List

  /// One pair's current state: its quote, the recent daily rates and when it was added.
  @dynamicMemberLookup
  struct Row: Encodable, Sendable {
    var current: QuoteDocument
    var sparkline: [Double]
    var addedAt: Date

    init(_ snapshot: PairSnapshot, now: Date) {
      current = QuoteDocument(
        base: snapshot.pair.base, quote: snapshot.pair.quote, rate: snapshot.rate,
        changePercent: snapshot.changePercent, changePeriod: snapshot.changePeriod.rawValue,
        source: snapshot.source, fetchedAt: snapshot.fetchedAt, updatedAt: snapshot.updatedAt,
        stale: snapshot.staleness != nil,
        old: UpdateRhythm.isOld(updatedAt: snapshot.updatedAt, source: snapshot.source, at: now))
      sparkline = snapshot.points
      addedAt = snapshot.pair.addedAt
    }

    subscript<Value>(dynamicMember path: KeyPath<QuoteDocument, Value>) -> Value { current[keyPath: path] }

    private enum CodingKeys: String, CodingKey { case sparkline, addedAt }

    func encode(to encoder: any Encoder) throws {
      try current.encode(to: encoder)
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(sparkline, forKey: .sparkline)
      try container.encode(addedAt, forKey: .addedAt)
    }
  }

  struct Document: Encodable {
    var pairs: [Row]
    /// The pairs that did not arrive, `BASE/QUOTE` (docs/json.md `missing`).
    var missing: [String] = []
  }

  /// `pairs [list]`.
  static func list(_ invocation: Invocation) async throws -> ExitCode {
    let pairs = Array(try invocation.userData().pairs.read().reversed())
    let ledger = try invocation.userData().streetEntries(for: pairs)
    let board = pairs.isEmpty ? PairBoard() : await invocation.desk.board(for: pairs, ledger: ledger)
    try invocation.report(partial: board.missing, arrived: !board.snapshots.isEmpty)
    let now = invocation.context.now()
    invocation.report(board.snapshots.compactMap(\.staleness).min { $0.fetchedAt < $1.fetchedAt })
    let document = Document(
      pairs: board.snapshots.map { Row($0, now: now) }, missing: board.missing.map(\.name))
    try invocation.write(CommandOutput(document: document) { Self.text(document, $0) })
    return .success
  }

  /// The pairs as a table: rate, change, a week's sparkline and the source.
  static func text(_ document: Document, _ layout: TextLayout) -> String {
    let (style, ascii) = (layout.style, layout.ascii)
    guard !document.pairs.isEmpty || !document.missing.isEmpty else {
      return "No pairs yet. Add one with 'rates pairs add GBP USD'."
    }
    var table = TextTable(columns: [
      .init("PAIR", priority: TextTable.required),
      .init("RATE", alignment: .right, priority: TextTable.required),
      .init("CHANGE", alignment: .right, priority: 2), .init("7 DAYS", priority: 0),
      .init("SOURCE", priority: 1),
    ])
    for row in document.pairs {
      let change = row.changePercent
      table.append([
        "\(row.base)/\(row.quote)",
        row.rate.map(RateFormat.rate) ?? "—",
        change.map { style.change(RateFormat.percent($0), value: $0) + " " + style.dim(row.changePeriod) } ?? "—",
        Sparkline.trend(row.sparkline, cells: Sparkline.weekCells, ascii: ascii, style: style),
        row.source.displayName + (row.stale ? style.yellow(" (stale)") : "")
          + (row.old ? style.yellow(" (old)") : ""),
      ])
    }
    return layout.render(table).joined(separator: "\n")
  }
}
