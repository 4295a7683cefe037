import RateCore

/// `rates ledger …`: the user's own record of currency exchanges, for markets no API covers
/// (street rates such as USD/LBP), and the rates it implies.
///
/// Each action is a nested type in its own file (`LedgerAddCommand.swift` …) that declares,
/// parses and runs itself; their work is in static functions of this type: list, add and
/// remove here, `rate` and `stats` in `LedgerCommand+Rates.swift`, `export` and `import` in
/// `LedgerCommand+CSV.swift`.
struct LedgerCommand: CommandDeclaration {
  static let name = "ledger"
  static let abstract = "record your own exchanges (street rates) and the rate they imply"
  static let subcommands: [any CommandDeclaration.Type] = [
    List.self, Add.self, Remove.self, Rate.self, Stats.self, Export.self, Import.self,
  ]
  static let defaultSubcommand: (any CommandDeclaration.Type)? = List.self
  static let discussion = """
    A rate over several exchanges is weighted by amount: the sum of the QUOTE amounts over
    the sum of the BASE amounts, with exchanges recorded either way round turned to the pair.
    The ledger lives in $XDG_DATA_HOME/rates/ledger.json. No command here uses the network.
    'rate' and 'stats' exit 66 when no exchange of the pair falls in the days asked for.
    """
  static let examples = [
    "rates ledger add 100 USD 8950000 LBP --sell --with \"Abu Ali\" --note \"cash, Hamra\"",
    "rates ledger rate USD LBP",
    "rates ledger stats USD-LBP --days 90",
    "rates ledger export --csv > ledger.csv",
  ]

  /// The filters of `ledger list`.
  struct ListFilter: Sendable, Equatable {
    var pair: (base: CurrencyCode, quote: CurrencyCode)?
    var days: Int?
    var counterparty: Counterparty

    /// Which counterparties `list` shows.
    enum Counterparty: Sendable, Equatable {
      /// Every entry, named or not.
      case all
      /// Only entries naming someone.
      case anyone
      /// Only entries with this name, compared case-insensitively.
      case named(String)
    }

    /// The pair an entry is rated in: the filter's pair, else the entry's own direction.
    func orientation(of entry: LedgerEntry) -> (base: CurrencyCode, quote: CurrencyCode) {
      pair ?? (entry.currency, entry.counterCurrency)
    }

    static func == (lhs: ListFilter, rhs: ListFilter) -> Bool {
      lhs.pair?.base == rhs.pair?.base && lhs.pair?.quote == rhs.pair?.quote
        && lhs.days == rhs.days && lhs.counterparty == rhs.counterparty
    }
  }

  /// An exchange to record; its date is checked against today when run.
  struct NewEntry: Sendable, Hashable {
    /// Set for a deposit or withdrawal; then the counter amount and currency are its cost
    /// (0 and "" when none was given).
    var transfer: LedgerEntry.Transfer? = nil
    var side: LedgerEntry.Side
    var amount: Double
    var currency: CurrencyCode
    var counterAmount: Double
    var counterCurrency: CurrencyCode
    var counterparty: String?
    var note: String?
    var date: String?
  }

  /// Today, in UTC.
  static func today(_ invocation: Invocation) -> Day { Day(containing: invocation.context.now()) }

  // MARK: - Add

  static func add(_ new: NewEntry, _ invocation: Invocation) throws -> ExitCode {
    let now = invocation.context.now()
    let date: Day
    do {
      date =
        try new.date.map { text throws(LedgerInput.Invalid) in
          try LedgerInput.day(text, today: Day(containing: now))
        } ?? Day(containing: now)
    } catch {
      throw UsageError.invalid(error.message)
    }
    var entry = LedgerEntry(
      id: 0, date: date, side: new.side, amount: new.amount, currency: new.currency,
      counterAmount: new.counterAmount, counterCurrency: new.counterCurrency,
      counterparty: new.counterparty, note: new.note, recordedAt: now)
    entry.transfer = new.transfer
    let store = invocation.userData().ledger
    if new.transfer == .withdrawal { try Self.checkHeld(entry, in: store.read()) }
    let stored = try store.append(entry)
    var line = "Recorded #\(stored.id): \(Self.describe(stored)) on \(stored.date)"
    if let name = stored.counterparty { line += " with \(name)" }
    if let rate = stored.rate {
      line += " (\(stored.currency)/\(stored.counterCurrency) \(RateFormat.rate(rate)))"
    }
    let text = line + "."
    let document = LedgerChangeDocument(
      added: [LedgerEntryJSON(stored)], removed: [], fetchedAt: now)
    try invocation.write(CommandOutput(document: document) { _ in text })
    return .success
  }

  /// `sold 100.00 USD for 8,950,000.00 LBP`.
  static func describe(_ entry: LedgerEntry) -> String {
    if let transfer = entry.transfer {
      let cost = entry.cost.map { " at a cost of " + amount($0.amount, $0.currency) } ?? ""
      return "\(transfer == .deposit ? "deposited" : "withdrew") \(amount(entry.amount, entry.currency))"
        + cost
    }
    let verb = entry.side == .sell ? "sold" : "bought"
    return "\(verb) \(amount(entry.amount, entry.currency)) for "
      + amount(entry.counterAmount, entry.counterCurrency)
  }

  /// An amount under the number policy (``RateFormat/money(_:code:)``): `8,950,000.00 LBP`,
  /// `1.500 KWD`, `1,000 JPY`, `0.00012345 BTC` (whole satoshis, never rounded away).
  static func amount(_ value: Double, _ code: CurrencyCode) -> String {
    RateFormat.money(value, code: code.text)
  }

  /// Refuses, before writing, a withdrawal that takes more than the ledger holds on its day,
  /// judged as it will be recorded: after every entry already there, same-day ones included
  /// (entries of a day count in the order recorded).
  static func checkHeld(_ withdrawal: LedgerEntry, in ledger: Ledger) throws {
    var after = ledger
    let candidate = after.append(withdrawal)
    do {
      try PortfolioReport.checkBalances(after.entries)
    } catch PortfolioError.overdrawn(let id, let code, let amount, let held, let day) where id == candidate.id {
      // Not written, so no id to name: what it would take, and what is held.
      throw UsageError.invalid(
        "the withdrawal takes \(RateFormat.money(amount, code: code.text)) on \(day), but only "
          + "\(RateFormat.money(held, code: code.text)) is held then: withdraw at most that, or record "
          + "what came in first")
    }
  }

  // MARK: - Remove

  static func remove(_ ids: [Int], _ invocation: Invocation) throws -> ExitCode {
    let removed = try invocation.userData().ledger.remove(ids: ids)
    // An id not in the ledger is already as asked, as for the other lists: a note, exit 0.
    var absent: [Int] = []
    for id in ids where !removed.contains(where: { $0.id == id }) && !absent.contains(id) {
      absent.append(id)
    }
    if !absent.isEmpty {
      let list = absent.map { "#\($0)" }.joined(separator: ", ")
      invocation.err(
        "note: \(list) \(absent.count == 1 ? "is" : "are") not in your ledger (see 'rates ledger list')")
    }
    let text = removed.map { "Removed #\($0.id): \(Self.describe($0)) on \($0.date)." }
      .joined(separator: "\n")
    let document = LedgerChangeDocument(
      added: [], removed: removed.map { LedgerEntryJSON($0) }, fetchedAt: invocation.context.now())
    try invocation.write(CommandOutput(document: document) { _ in text })
    return .success
  }

  // MARK: - List

  static func list(_ filter: ListFilter, _ invocation: Invocation) throws -> ExitCode {
    // The document and exports read the whole ledger, only when asked for; the table reads
    // it page by page.
    let entries = { @Sendable () throws -> [LedgerEntry] in
      let window = filter.days.map { LedgerMath.window(days: $0, endingOn: today(invocation)) }
      return try invocation.userData().ledger.read().newestFirst.filter {
        filter.matches($0, window: window)
      }
    }
    try invocation.write(
      CommandOutput(
        json: { try CommandOutput.encoded(Self.listDocument(try entries(), filter, invocation)) },
        exports: [
          .csv: { LedgerCSV.document(try entries().reversed()) },
          .ledger: { Self.directives(try entries(), filter, journal: .ledger) },
          .beancount: { Self.directives(try entries(), filter, journal: .beancount) },
        ],
        body: .streamed { _ = try listTable(filter, invocation) }))
    return .success
  }

  /// `ledger list --json`: the filters and the matching entries, newest first.
  static func listDocument(
    _ entries: [LedgerEntry], _ filter: ListFilter, _ invocation: Invocation
  ) -> LedgerListDocument {
    let window = filter.days.map {
      LedgerMath.window(days: $0, endingOn: Day(containing: invocation.context.now()))
    }
    var named: String? = nil
    if case .named(let name) = filter.counterparty { named = name }
    return LedgerListDocument(
      fetchedAt: invocation.context.now(),
      filters: .init(
        pair: filter.pair.map { "\($0.base)-\($0.quote)" }, days: filter.days,
        from: window?.lowerBound, to: window?.upperBound, with: named,
        withAnyone: filter.counterparty == .anyone),
      entries: entries.map { entry in
        let (base, quote) = filter.orientation(of: entry)
        return LedgerEntryJSON(entry, base: base, quote: quote)
      })
  }

  /// One price directive per exchange, oldest first, at the rate it implied.
  static func directives(
    _ entries: [LedgerEntry], _ filter: ListFilter, journal: PriceExport.Journal
  ) -> String {
    let lines = entries.reversed().compactMap { entry -> String? in
      let (base, quote) = filter.orientation(of: entry)
      return entry.rate(base: base, quote: quote).flatMap {
        PriceExport.directive(
          day: entry.date, base: .code(base), rate: $0, quote: .code(quote), journal: journal)
      }
    }
    return CommandOutput.lines(lines.joined(separator: "\n"))
  }
}

// MARK: - JSON documents

/// An entry in `--json` output: every stored field (absent ones as `null`), plus the pair it
/// is rated in and its rate.
struct LedgerEntryJSON: Encodable {
  var entry: LedgerEntry
  var base: CurrencyCode
  var quote: CurrencyCode

  /// The entry rated in its own direction, or as `base`-`quote` when given.
  init(_ entry: LedgerEntry, base: CurrencyCode? = nil, quote: CurrencyCode? = nil) {
    self.entry = entry
    self.base = base ?? entry.currency
    self.quote = quote ?? entry.counterCurrency
  }

  enum CodingKeys: String, CodingKey {
    case id, date, side, amount, currency, counterAmount, counterCurrency, counterparty, note
    case recordedAt, base, quote, rate, kind, importID, role
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(entry.id, forKey: .id)
    try container.encode(entry.date, forKey: .date)
    try container.encode(entry.side, forKey: .side)
    try container.encode(entry.amount, forKey: .amount)
    try container.encode(entry.currency, forKey: .currency)
    try container.encode(entry.counterAmount, forKey: .counterAmount)
    try container.encode(entry.counterCurrency, forKey: .counterCurrency)
    try container.encode(entry.counterparty, forKey: .counterparty)
    try container.encode(entry.note, forKey: .note)
    try container.encode(entry.recordedAt, forKey: .recordedAt)
    try container.encode(base, forKey: .base)
    try container.encode(quote, forKey: .quote)
    try container.encode(entry.rate(base: base, quote: quote), forKey: .rate)
    // Only on a deposit or withdrawal, so an exchange's document is as before.
    try container.encodeIfPresent(entry.transfer, forKey: .kind)
    // Only on an entry imported from an exchange's file.
    try container.encodeIfPresent(entry.importID, forKey: .importID)
    try container.encodeIfPresent(entry.role, forKey: .role)
  }
}

/// `ledger list --json`.
struct LedgerListDocument: Encodable {
  struct Filters: Encodable {
    @NullEncoded var pair: String?
    @NullEncoded var days: Int?
    @NullEncoded var from: Day?
    @NullEncoded var to: Day?
    @NullEncoded var with: String?
    var withAnyone: Bool

    enum CodingKeys: String, CodingKey {
      case pair, days
      case from = "firstDay"
      case to = "lastDay"
      // Named as in the entries (`counterparty`), not as the `--with` option.
      case with = "counterparty"
      case withAnyone = "anyCounterparty"
    }
  }
  var source = RateSource.ledger
  var fetchedAt: Date
  var stale = false
  var filters: Filters
  var entries: [LedgerEntryJSON]
}

/// `ledger add`, `remove` and `import` with `--json`: the shape of the other commands'
/// change documents, with whole entries instead of names.
struct LedgerChangeDocument: Encodable {
  var source = RateSource.ledger
  var added: [LedgerEntryJSON]
  var removed: [LedgerEntryJSON]
  var unchanged: [LedgerEntryJSON] = []
  var fetchedAt: Date
  var stale = false
  /// Set (true) only by `import --dry-run`: `added` is what would be added.
  var dryRun: Bool?
}
