import Foundation
import RateCore

/// `rates ledger …`: the user's own record of currency exchanges, for markets no API covers
/// (street rates such as USD/LBP), and the rates it implies.
///
/// The actions live in extensions: list, add and remove here; `rate` and `stats` in
/// `LedgerCommand+Rates.swift`; `export` and `import` in `LedgerCommand+CSV.swift`.
struct LedgerCommand: RatesCommand {
  static let name = "ledger"
  static let exportFormats = priceExportFormats
  static let abstract = "record your own exchanges (street rates) and the rate they imply"
  static let usage = """
    rates ledger [list] [--pair BASE-QUOTE] [--days N] [--with NAME | --with-anyone]
    rates ledger add <AMOUNT> <CURRENCY> <AMOUNT> <CURRENCY> (--sell | --buy) [--with NAME]
                     [--date YYYY-MM-DD] [--note TEXT]
    rates ledger remove <ID> [<ID> ...]
    rates ledger rate <BASE> <QUOTE> [--days N]
    rates ledger stats <BASE> <QUOTE> [--days N]
    rates ledger export --csv
    rates ledger import <FILE.csv>
    """
  static let details = """
    Actions:
      list                your exchanges, newest first, each with the rate it implies
      add                 record an exchange: 'add 100 USD 8950000 LBP --sell' means you sold
                          100 USD for 8,950,000 LBP; with --buy you bought 100 USD and paid
                          8,950,000 LBP
      remove, rm          remove exchanges by id (ids are never reused)
      rate                the amount-weighted buy and sell rates of the last N days, and
                          their midpoint
      stats               daily average buy and sell rates as charts, with max, mean and
                          sample standard deviation
      export              the whole ledger as CSV on stdout, oldest first
      import              add the exchanges of a CSV file (as export writes it); every line is
                          checked first, and one bad line imports nothing

    Arguments:
      <AMOUNT>            more than 0 and at most 1e15: 1500, 1,500.25 or 1e3 ('.' for
                          decimals, ',' only between groups of three digits)
      <CURRENCY>          any three-letter code (USD, LBP, NGN, ARS); the two must differ
      <BASE> <QUOTE>      the pair, also written BASE-QUOTE; rates are QUOTE per BASE, and
                          buy and sell mean buying and selling BASE
      <ID>                an exchange's id, as list shows it

    Options:
      --sell, --buy       (add) you sold, or bought, the first amount; one is required
      --with NAME         (add) who the exchange was with; (list) only exchanges with NAME,
                          in any case
      --with-anyone       (list) only exchanges that name someone
      --date YYYY-MM-DD   (add) the day of the exchange, UTC (default today; also 'today',
                          'yesterday'); at most one day after today (time zones east of UTC), not
                      before 1990
      --note TEXT         (add) a note; notes and names keep at most 200 characters
      --pair BASE-QUOTE   (list) only exchanges between these two, with rates as QUOTE per
                          BASE (default: every exchange, rated in its own direction)
      --days N            the last N days, today included, 1 to 3650 (list: all; rate: 3,
                          the usual 'rate of the last three days'; stats: 30)
      --csv               (export) write CSV; required, as it is the only format for now

    A rate over several exchanges is weighted by amount: the sum of the QUOTE amounts over
    the sum of the BASE amounts, with exchanges recorded either way round turned to the pair.
    CSV columns: id,date,side,amount,currency,counter_amount,counter_currency,rate,with,note
    (RFC 4180, CR LF line ends; import also reads LF, ignores id and rate, and gives new ids).
    The ledger lives in $XDG_DATA_HOME/rates/ledger.json. No command here uses the network.
    'rate' and 'stats' exit 66 when no exchange of the pair falls in the days asked for.

    Examples:
      rates ledger add 100 USD 8950000 LBP --sell --with "Abu Ali" --note "cash, Hamra"
      rates ledger rate USD LBP
      rates ledger stats USD-LBP --days 90
      rates ledger export --csv > ledger.csv
    """

  /// The filters of `ledger list`.
  struct ListFilter: Sendable, Equatable {
    var pair: (base: String, quote: String)?
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

    static func == (lhs: ListFilter, rhs: ListFilter) -> Bool {
      lhs.pair?.base == rhs.pair?.base && lhs.pair?.quote == rhs.pair?.quote
        && lhs.days == rhs.days && lhs.counterparty == rhs.counterparty
    }
  }

  /// An exchange to record; its date is checked against today when run.
  struct NewEntry: Sendable, Equatable {
    var side: LedgerEntry.Side
    var amount: Double
    var currency: String
    var counterAmount: Double
    var counterCurrency: String
    var counterparty: String?
    var note: String?
    var date: String?
  }

  enum Action: Sendable, Equatable {
    case list(ListFilter)
    case add(NewEntry)
    case remove([Int])
    case rate(base: String, quote: String, days: Int)
    case stats(base: String, quote: String, days: Int)
    case export
    case importFile(String)
  }

  let action: Action

  init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
    // Every option first, so that no option's value is taken for a positional.
    var given: [String] = []
    func note(_ name: String, _ present: Bool) {
      if present { given.append(name) }
    }
    let sell = try scanner.flag("--sell")
    let buy = try scanner.flag("--buy")
    let withName = try scanner.option("--with")
    let withAnyone = try scanner.flag("--with-anyone")
    let date = try scanner.option("--date")
    let noteText = try scanner.option("--note")
    let pairText = try scanner.option("--pair")
    let days = try scanner.option("--days", expected: "a whole number from 1 to 3650") {
      Int($0).flatMap { (1...3650).contains($0) ? $0 : nil }
    }
    let csv = try scanner.flag("--csv")
    note("--sell", sell)
    note("--buy", buy)
    note("--with", withName != nil)
    note("--with-anyone", withAnyone)
    note("--date", date != nil)
    note("--note", noteText != nil)
    note("--pair", pairText != nil)
    note("--days", days != nil)
    note("--csv", csv)

    let verb = scanner.positional()
    func allow(_ allowed: Set<String>) throws(UsageError) {
      if let stray = given.first(where: { !allowed.contains($0) }) {
        throw UsageError.invalid(
          "'\(stray)' does not apply to 'rates ledger \(verb ?? "list")': see 'rates ledger --help'"
        )
      }
    }
    func check<T>(_ body: () throws(LedgerInput.Invalid) -> T) throws(UsageError) -> T {
      do { return try body() } catch { throw UsageError.invalid(error.message) }
    }

    switch verb {
    case nil, "list"?, "ls"?:
      try allow(["--pair", "--days", "--with", "--with-anyone"])
      if withName != nil && withAnyone {
        throw UsageError.invalid("--with and --with-anyone cannot be used together")
      }
      var filter = ListFilter(pair: nil, days: days, counterparty: .all)
      if let pairText {
        guard let (base, quote) = LedgerInput.splitPair(pairText) else {
          throw UsageError.invalidValue(
            option: "--pair", value: TerminalText.sanitize(pairText),
            expected: "two currency codes such as USD-LBP")
        }
        filter.pair = try check { () throws(LedgerInput.Invalid) in
          try LedgerInput.pair(base, quote)
        }
      }
      if withAnyone { filter.counterparty = .anyone }
      if let withName {
        let name = try check { () throws(LedgerInput.Invalid) in
          try LedgerInput.text(withName, what: "--with name")
        }
        guard let name else { throw UsageError.missingValue(option: "--with") }
        filter.counterparty = .named(name)
      }
      action = .list(filter)

    case "add"?:
      try allow(["--sell", "--buy", "--with", "--date", "--note"])
      guard sell != buy else {
        throw UsageError.invalid(
          sell
            ? "--sell and --buy cannot be used together"
            : "say which way the exchange went: --sell (you sold the first amount) or --buy "
              + "(you bought it)")
      }
      guard let amountText = scanner.positional() else {
        throw UsageError.missingArgument("amount")
      }
      guard let currencyText = scanner.positional() else {
        throw UsageError.missingArgument("currency")
      }
      guard let counterAmountText = scanner.positional() else {
        throw UsageError.missingArgument("amount")
      }
      guard let counterCurrencyText = scanner.positional() else {
        throw UsageError.missingArgument("currency")
      }
      action = .add(
        try check { () throws(LedgerInput.Invalid) in
          let (currency, counterCurrency) = try LedgerInput.pair(
            currencyText, counterCurrencyText)
          return NewEntry(
            side: sell ? .sell : .buy,
            amount: try LedgerInput.amount(amountText),
            currency: currency,
            counterAmount: try LedgerInput.amount(counterAmountText),
            counterCurrency: counterCurrency,
            counterparty: try withName.flatMap { text throws(LedgerInput.Invalid) in
              try LedgerInput.text(text, what: "--with name")
            },
            note: try noteText.flatMap { text throws(LedgerInput.Invalid) in
              try LedgerInput.text(text, what: "note")
            },
            date: date)
        })

    case "remove"?, "rm"?:
      try allow([])
      let texts = scanner.positionals()
      guard !texts.isEmpty else { throw UsageError.missingArgument("id") }
      var ids: [Int] = []
      for text in texts {
        let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard let id = Int(digits), id > 0 else {
          throw UsageError.invalid(
            "\(LedgerInput.quoted(text)) is not an exchange id: use the number 'rates ledger "
              + "list' shows")
        }
        ids.append(id)
      }
      action = .remove(ids)

    case "rate"?, "stats"?:
      try allow(["--days"])
      guard let first = scanner.positional() else { throw UsageError.missingArgument("base") }
      let pair: (String, String)
      if let split = LedgerInput.splitPair(first) {
        pair = split
      } else {
        guard let second = scanner.positional() else {
          throw UsageError.missingArgument("quote")
        }
        pair = (first, second)
      }
      let (base, quote) = try check { () throws(LedgerInput.Invalid) in
        try LedgerInput.pair(pair.0, pair.1)
      }
      action =
        verb == "rate"
        ? .rate(base: base, quote: quote, days: days ?? 3)
        : .stats(base: base, quote: quote, days: days ?? 30)

    case "export"?:
      try allow(["--csv"])
      guard csv else {
        throw UsageError.invalid(
          "export needs --csv, the only format for now: rates ledger export --csv > ledger.csv")
      }
      action = .export

    case "import"?:
      try allow([])
      guard let path = scanner.positional() else { throw UsageError.missingArgument("file") }
      action = .importFile(path)

    case let other?:
      throw UsageError.invalid(
        "unknown action \(LedgerInput.quoted(other)): use list, add, remove, rate, stats, "
          + "export or import")
    }
  }

  func run(_ invocation: Invocation) async throws -> ExitCode {
    if let format = invocation.options.format, priceExportFormats.contains(format) {
      guard case .list = action else {
        throw UsageError.invalid(
          "--format \(format.rawValue) is only for 'rates ledger list' (and 'export --csv')")
      }
    }
    switch action {
    case .list(let filter): return try list(filter, invocation)
    case .add(let entry): return try add(entry, invocation)
    case .remove(let ids): return try remove(ids, invocation)
    case .rate(let base, let quote, let days):
      return try rate(base: base, quote: quote, days: days, invocation)
    case .stats(let base, let quote, let days):
      return try stats(base: base, quote: quote, days: days, invocation)
    case .export: return try export(invocation)
    case .importFile(let path): return try importFile(path, invocation)
    }
  }

  /// Today, in UTC.
  func today(_ invocation: Invocation) -> Day { Day(containing: invocation.context.now()) }

  // MARK: - Add

  func add(_ new: NewEntry, _ invocation: Invocation) throws -> ExitCode {
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
    let entry = LedgerEntry(
      id: 0, date: date, side: new.side, amount: new.amount, currency: new.currency,
      counterAmount: new.counterAmount, counterCurrency: new.counterCurrency,
      counterparty: new.counterparty, note: new.note, recordedAt: now)
    let stored = try invocation.userData().ledger.update { ledger in ledger.append(entry) }
    if invocation.options.json {
      try invocation.printJSON(
        LedgerChangeDocument(
          added: [LedgerEntryJSON(stored)], removed: [], fetchedAt: now))
      return .success
    }
    var line = "Recorded #\(stored.id): \(Self.describe(stored)) on \(stored.date)"
    if let name = stored.counterparty { line += " with \(name)" }
    if let rate = stored.rate {
      line += " (\(stored.currency)-\(stored.counterCurrency) \(RateFormat.rate(rate)))"
    }
    invocation.out(line + ".")
    return .success
  }

  /// `sold 100.00 USD for 8,950,000.00 LBP`.
  static func describe(_ entry: LedgerEntry) -> String {
    let verb = entry.side == .sell ? "sold" : "bought"
    return "\(verb) \(amount(entry.amount, entry.currency)) for "
      + amount(entry.counterAmount, entry.counterCurrency)
  }

  /// `8,950,000 LBP`, `1,500.25 USD`, `0.00000107 BTC`: whole amounts without decimals.
  static func amount(_ value: Double, _ code: String) -> String {
    let text =
      value == value.rounded() && abs(value) <= 1e15
      ? RateFormat.fixed(value, decimals: 0) : RateFormat.number(value)
    return text + " " + code
  }

  // MARK: - Remove

  func remove(_ ids: [Int], _ invocation: Invocation) throws -> ExitCode {
    let removed = try invocation.userData().ledger.update { ledger -> [LedgerEntry] in
      let missing = ids.filter { id in !ledger.entries.contains { $0.id == id } }
      guard missing.isEmpty else {
        let list = missing.map { "#\($0)" }.joined(separator: ", ")
        throw UsageError.invalid(
          "no exchange \(list) in your ledger (see 'rates ledger list'); nothing was removed")
      }
      let removed = ledger.entries.filter { ids.contains($0.id) }
      ledger.entries.removeAll { ids.contains($0.id) }
      return removed
    }
    if invocation.options.json {
      try invocation.printJSON(
        LedgerChangeDocument(
          added: [], removed: removed.map { LedgerEntryJSON($0) },
          fetchedAt: invocation.context.now()))
      return .success
    }
    for entry in removed {
      invocation.out("Removed #\(entry.id): \(Self.describe(entry)) on \(entry.date).")
    }
    return .success
  }

  // MARK: - List

  func list(_ filter: ListFilter, _ invocation: Invocation) throws -> ExitCode {
    let ledger = try invocation.userData().ledger.read()
    let today = today(invocation)
    let window = filter.days.map { LedgerMath.window(days: $0, endingOn: today) }
    let entries = ledger.newestFirst.filter { entry in
      if let window, !window.contains(entry.date) { return false }
      if let pair = filter.pair, entry.oriented(base: pair.base, quote: pair.quote) == nil {
        return false
      }
      switch filter.counterparty {
      case .all: return true
      case .anyone: return entry.counterparty != nil
      case .named(let name):
        return entry.counterparty?.lowercased() == name.lowercased()
      }
    }
    func orientation(_ entry: LedgerEntry) -> (base: String, quote: String) {
      filter.pair ?? (entry.currency, entry.counterCurrency)
    }
    if invocation.options.json {
      try invocation.printJSON(
        LedgerListDocument(
          fetchedAt: invocation.context.now(),
          filters: .init(
            pair: filter.pair.map { "\($0.base)-\($0.quote)" }, days: filter.days,
            from: window?.lowerBound, to: window?.upperBound,
            with: {
              if case .named(let name) = filter.counterparty { return name }
              return nil
            }(),
            withAnyone: filter.counterparty == .anyone),
          entries: entries.map { entry in
            let (base, quote) = orientation(entry)
            return LedgerEntryJSON(entry, base: base, quote: quote)
          }))
      return .success
    }
    switch invocation.options.format {
    case .csv?:
      invocation.context.writeOut(LedgerCSV.document(entries.reversed()))
      return .success
    case .ledger?, .beancount?:
      // One price directive per exchange, at the rate it implied.
      let journal: PriceExport.Journal = invocation.options.format == .ledger ? .ledger : .beancount
      let lines = entries.reversed().compactMap { entry -> String? in
        let (base, quote) = orientation(entry)
        return entry.rate(base: base, quote: quote).map {
          PriceExport.directive(day: entry.date, base: base, rate: $0, quote: quote, journal: journal)
        }
      }
      if !lines.isEmpty { invocation.out(lines.joined(separator: "\n")) }
      return .success
    default: break
    }
    guard !entries.isEmpty else {
      invocation.out(
        ledger.entries.isEmpty
          ? "No exchanges recorded yet. Record one with "
            + "'rates ledger add 100 USD 8950000 LBP --sell'."
          : "No exchanges match (\(ledger.entries.count) in the ledger).")
      return .success
    }
    let style = invocation.style
    var table = TextTable(columns: [
      // DATE and SIDE are right-aligned so that narrowing cuts WITH and NOTE, never them.
      .init("ID", alignment: .right), .init("DATE", alignment: .right),
      .init("SIDE", alignment: .right),
      .init("AMOUNT", alignment: .right), .init("FOR", alignment: .right),
      .init("RATE", alignment: .right), .init("WITH"), .init("NOTE"),
    ])
    for entry in entries {
      let (base, quote) = orientation(entry)
      table.append([
        String(entry.id), entry.date.description, entry.side.rawValue,
        Self.amount(entry.amount, entry.currency),
        Self.amount(entry.counterAmount, entry.counterCurrency),
        entry.rate(base: base, quote: quote).map(RateFormat.rate) ?? "—",
        entry.counterparty ?? "—", entry.note ?? "",
      ])
    }
    let lines = table.render(
      maxWidth: invocation.terminal.width, ascii: !invocation.terminal.unicode)
    invocation.out(
      (lines.prefix(1).map(style.bold) + lines.dropFirst()).joined(separator: "\n"))
    let count = entries.count == 1 ? "1 exchange" : "\(entries.count) exchanges"
    let unit =
      filter.pair.map { "RATE is \($0.quote) per \($0.base)" }
      ?? "RATE is the FOR currency per unit of the AMOUNT currency"
    invocation.out(style.dim("\(count), newest first; \(unit)"))
    return .success
  }
}

// MARK: - JSON documents

/// An entry in `--json` output: every stored field (absent ones as `null`), plus the pair it
/// is rated in and its rate.
struct LedgerEntryJSON: Encodable {
  var entry: LedgerEntry
  var base: String
  var quote: String

  /// The entry rated in its own direction, or as `base`-`quote` when given.
  init(_ entry: LedgerEntry, base: String? = nil, quote: String? = nil) {
    self.entry = entry
    self.base = base ?? entry.currency
    self.quote = quote ?? entry.counterCurrency
  }

  enum CodingKeys: String, CodingKey {
    case id, date, side, amount, currency, counterAmount, counterCurrency, counterparty, note
    case recordedAt, base, quote, rate
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
  }
}

/// `ledger list --json`.
struct LedgerListDocument: Encodable {
  struct Filters: Encodable {
    var pair: String?
    var days: Int?
    var from: Day?
    var to: Day?
    var with: String?
    var withAnyone: Bool

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(pair, forKey: .pair)
      try container.encode(days, forKey: .days)
      try container.encode(from, forKey: .from)
      try container.encode(to, forKey: .to)
      try container.encode(with, forKey: .with)
      try container.encode(withAnyone, forKey: .withAnyone)
    }
    enum CodingKeys: String, CodingKey { case pair, days, from, to, with, withAnyone }
  }
  var version = 1
  var source = "ledger"
  var fetchedAt: Date
  var stale = false
  var filters: Filters
  var entries: [LedgerEntryJSON]
}

/// `ledger add`, `remove` and `import` with `--json`: the shape of the other commands'
/// change documents, with whole entries instead of names.
struct LedgerChangeDocument: Encodable {
  var version = 1
  var source = "ledger"
  var added: [LedgerEntryJSON]
  var removed: [LedgerEntryJSON]
  var unchanged: [LedgerEntryJSON] = []
  var fetchedAt: Date
  var stale = false
}
