/// Reading exchanges' export files into ledger entries (`rates ledger import --from`).
///
/// A file is read whole and checked first: its header names the layout (``ExchangeLayout``),
/// every row is mapped to an ``ImportedEvent`` (or listed as a ``Problem``), and only then are
/// entries made. Each entry keeps an import id (`kraken:L2BWE5-…`, or a digest of the
/// row where the layout has no id), so importing the same file again adds nothing: the
/// ledger's one rule for entries already there matches imported entries by that id.
public enum ExchangeImport {
  /// Why a whole file was refused: nothing of it may be imported.
  public enum Failure: Error, Equatable, Sendable {
    /// A NUL byte, or text that is not UTF-8.
    case notText(line: Int)
    /// The CSV cannot be read (an unclosed quote…).
    case syntax(CSV.ParseError)
    /// No line holds a known header; `seen` is what the first line held.
    case unknownLayout(line: Int, seen: [String])
    /// The header is another family's: `--from` named `asked`, the file is `found`.
    case otherExchange(asked: ExchangeFormat, found: ExchangeLayout, line: Int)
    /// The header is separated by `;` (a spreadsheet re-save), which is not read.
    case semicolons(line: Int)

    /// One line: what is wrong and what to do (the caller adds the file's name).
    public var message: String {
      switch self {
      case .notText(let line):
        return "line \(line): the file holds a NUL byte or is not UTF-8 text"
      case .syntax(let error): return "line \(error.line): \(error.reason)"
      case .unknownLayout(_, let seen) where seen.allSatisfy(\.isEmpty):
        return "line 1: the file is empty: expected a Coinbase, Coinbase Exchange, Kraken or Binance export"
      case .unknownLayout(let line, let seen):
        let shown = ExchangeImport.shown(seen.joined(separator: ","))
        return "line \(line): no exchange layout has the header \(shown); "
          + "expected a Coinbase, Coinbase Exchange, Kraken or Binance export"
      case .otherExchange(let asked, let found, let line):
        return "line \(line): this is a \(found.name) file, not \(asked.title)"
      case .semicolons(let line):
        return "line \(line): the file is separated by ';' (a spreadsheet re-save): "
          + "download the exchange's CSV again"
      }
    }
  }

  /// A row that could not be mapped, or one left out on purpose.
  public struct Problem: Equatable, Sendable {
    /// The 1-based line of the row (the first row of a group).
    public var line: Int
    /// Why, as a short phrase.
    public var reason: String
  }

  /// What a file holds, ready to be added.
  public struct Plan: Sendable {
    /// The layout the header named.
    public var layout: ExchangeLayout
    /// Every entry the file maps to, in file order, each with an import id and id 0.
    public var entries: [LedgerEntry]
    /// Rows that could not be mapped: the file is refused unless the user skips them.
    public var unmappable: [Problem]
    /// Rows left out on purpose (pending copies, failed orders), with why.
    public var skipped: [Problem]
    /// Rows that move an asset between the user's own accounts (staking, wallets): no entry.
    public var ownMoves: Int
    /// Notes about the whole file (a time zone assumed).
    public var notes: [String]
    /// Each code the entries name, with the first line of the file that names it.
    public var firstLines: [CurrencyCode: Int] = [:]
  }

  /// How many records are searched for the header (Coinbase's preamble puts it on line 8).
  static let headerSearch = 12

  /// Reads an export file.
  ///
  /// - Parameters:
  ///   - text: The file's text (a BOM, CR LF and quoting are accepted).
  ///   - fileName: The file's name (Binance names its time zone only there).
  ///   - format: The family `--from` named, or nil for `--from auto`.
  ///   - recordedAt: The `recordedAt` of the entries.
  public static func read(
    _ text: String, fileName: String, format: ExchangeFormat?, recordedAt: Date
  ) throws(Failure) -> Plan {
    if let nul = text.utf8.firstIndex(of: 0) {
      throw .notText(line: text.utf8[..<nul].count { $0 == 0x0A } + 1)
    }
    let records: [CSV.Record]
    do { records = try CSV.parse(text) } catch { throw .syntax(error) }
    var table = try locate(records, fileName: fileName, format: format)
    table.today = Day(containing: recordedAt)
    return plan(table, recordedAt: recordedAt)
  }

  /// The table under the first header a layout knows.
  static func locate(_ records: [CSV.Record], fileName: String, format: ExchangeFormat?)
    throws(Failure) -> ImportTable
  {
    for (position, record) in records.prefix(headerSearch).enumerated() {
      for layout in ExchangeLayout.all {
        let (matched, currency) = layout.matches(record.fields)
        guard matched else { continue }
        if let format, format != layout.format {
          throw .otherExchange(asked: format, found: layout, line: record.line)
        }
        var columns: [String: Int] = [:]
        for (index, name) in record.fields.enumerated() {
          let key = ExchangeLayout.normalised(name)
          let generic = currency.map { key.replacing($0.text.lowercased() + " ", with: "") } ?? key
          columns[generic] = columns[generic] ?? index
        }
        let rows = records.dropFirst(position + 1).map { ImportTable.Row(line: $0.line, fields: $0.fields) }
        return ImportTable(
          layout: layout, fileName: fileName, headerCurrency: currency, columns: columns, rows: rows,
          offset: ImportTime.binanceOffset(fileName: fileName) ?? 0,
          zoneNamed: ImportTime.binanceOffset(fileName: fileName) != nil)
      }
    }
    let first = records.first
    if let first, first.fields.count == 1, first.fields[0].contains(";") {
      throw .semicolons(line: first.line)
    }
    throw .unknownLayout(line: first?.line ?? 1, seen: first?.fields ?? [])
  }

  /// Maps every row and makes the entries.
  static func plan(_ table: ImportTable, recordedAt: Date) -> Plan {
    let outcomes = mapper(table)
    var plan = Plan(
      layout: table.layout, entries: [], unmappable: [], skipped: [], ownMoves: 0, notes: [])
    var seen: [String: Int] = [:]
    var events: [ImportedEvent] = []
    for outcome in outcomes {
      switch outcome {
      case .event(var event):
        let count = (seen[event.id] ?? 0) + 1
        seen[event.id] = count
        if count > 1 { event.id += "~\(count)" }
        events.append(event)
      case .ownMove: plan.ownMoves += 1
      case .grouped: break
      case .skipped(let problem): plan.skipped.append(problem)
      case .unmappable(let problem): plan.unmappable.append(problem)
      }
    }
    for event in inTimeOrder(events) {
      let entries = event.entries(format: table.layout.format, recordedAt: recordedAt)
      for entry in entries {
        for code in [entry.currency, entry.counterCurrency] where !code.text.isEmpty {
          plan.firstLines[code] = min(plan.firstLines[code] ?? event.line, event.line)
        }
      }
      plan.entries += entries
    }
    plan.entries = ledgerOrder(plan.entries)
    plan.unmappable.sort { $0.line < $1.line }
    if table.layout.format == .binance, table.columns["time"] != nil, !table.zoneNamed {
      plan.notes.append(
        "times read as UTC (Binance names the zone of this layout only in the downloaded "
          + "file's name, as '(UTC+1)')")
    }
    return plan
  }

  /// `events` oldest first, so that the ledger's ids (which order a day's entries) follow time:
  /// by day, and within a day in the file's own direction (a file whose first row is newer than
  /// its last, as Coinbase and Binance write them, is read from its end).
  static func inTimeOrder(_ events: [ImportedEvent]) -> [ImportedEvent] {
    let byLine = events.sorted { $0.line < $1.line }
    let newestFirst = (byLine.first?.day ?? .earliest) > (byLine.last?.day ?? .earliest)
    return byLine.sorted { ($0.day, newestFirst ? -$0.line : $0.line) < ($1.day, newestFirst ? -$1.line : $1.line) }
  }

  /// Imported entries (of one file or several, each in time order) in the order the ledger
  /// numbers them: by day; within a day what came in (deposits, income) first, then the trades,
  /// then what went out, each group in the order given, and a fee leg with what it is the fee
  /// of. Money is spent after it arrives, and leaves after the trades that made it, whichever
  /// file holds what.
  public static func ledgerOrder(_ entries: [LedgerEntry]) -> [LedgerEntry] {
    func own(_ entry: LedgerEntry) -> Int {
      switch entry.transfer {
      case .deposit?: 0
      case .withdrawal?: 2
      case nil: 1
      }
    }
    var owners: [String: Int] = [:]
    for entry in entries where entry.role != .fee { if let id = entry.importID { owners[id] = own(entry) } }
    func stage(_ entry: LedgerEntry) -> Int {
      guard entry.role == .fee else { return own(entry) }
      return entry.feeOwner.flatMap { owners[$0] } ?? 1
    }
    return entries.enumerated()
      .sorted { ($0.element.date, stage($0.element), $0.offset) < ($1.element.date, stage($1.element), $1.offset) }
      .map(\.element)
  }

  /// The rows of `table` through its layout's mapper.
  static func mapper(_ table: ImportTable) -> [RowOutcome] {
    switch table.layout.mapper {
    case .coinbaseRetail: CoinbaseMapper.map(table)
    case .coinbaseFills: CoinbaseExchangeMapper.fills(table)
    case .coinbaseAccount: CoinbaseExchangeMapper.account(table)
    case .krakenTrades: KrakenMapper.trades(table)
    case .krakenLedgers: KrakenMapper.ledgers(table)
    case .binanceStatement: BinanceStatementMapper.map(table)
    case .binanceTrades: BinanceMapper.trades(table)
    case .binanceDeposits: BinanceMapper.deposits(table)
    case .binanceWithdrawals: BinanceMapper.withdrawals(table)
    case .binanceFiat: BinanceMapper.fiat(table)
    case .binanceCard: BinanceMapper.card(table)
    }
  }

  /// Outside text as shown in a message: at most 120 characters, controls replaced, quoted.
  static func shown(_ text: String) -> String {
    let head = text.unicodeScalars.prefix(121)
    let clean = String(
      String.UnicodeScalarView(head.map { $0.properties.generalCategory == .control ? "?" : $0 }))
    return "'" + (head.count > 120 ? clean.prefix(117) + "..." : clean) + "'"
  }

}

/// What a mapper makes of one row or group of rows.
enum RowOutcome: Sendable {
  case event(ImportedEvent)
  case ownMove
  /// A row gathered into a group that the mapper reports on its own.
  case grouped
  case skipped(ExchangeImport.Problem)
  case unmappable(ExchangeImport.Problem)

  static func unmappable(_ line: Int, _ reason: String) -> RowOutcome {
    .unmappable(ExchangeImport.Problem(line: line, reason: reason))
  }

  static func skipped(_ line: Int, _ reason: String) -> RowOutcome {
    .skipped(ExchangeImport.Problem(line: line, reason: reason))
  }
}
