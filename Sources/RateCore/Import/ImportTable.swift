/// An export file read as CSV: where its header is, and its rows by column name.
struct ImportTable: Sendable {
  /// One data row.
  struct Row: Sendable {
    var line: Int
    var fields: [String]
  }

  var layout: ExchangeLayout
  /// The file's name (Binance says some things only there).
  var fileName: String
  /// The currency a Coinbase 2020–21 header names.
  var headerCurrency: CurrencyCode?
  var columns: [String: Int]
  var rows: [Row]
  /// Seconds east of UTC of the file's naive local times (Binance's file-name zone).
  var offset: Int
  /// Whether the file's name named that zone.
  var zoneNamed: Bool
  /// The UTC day of the import: a later date is refused, as `ledger add` refuses it.
  var today = Day.latest

  /// The field `name` of `row`, trimmed; empty when the row is shorter.
  func field(_ row: Row, _ name: String) -> String {
    guard let index = columns[name], index < row.fields.count else { return "" }
    return row.fields[index].trimming(.whitespaces)
  }
}

/// Why one row cannot be mapped, as a short phrase.
struct RowError: Error {
  var reason: String
}

extension ImportTable {
  /// The row through `body`, or the row listed as unmappable with why.
  func outcome(_ row: Row, _ body: (Row) throws(RowError) -> RowOutcome) -> RowOutcome {
    guard row.fields.count >= layout.columns.count else {
      return .unmappable(
        row.line, "expected \(layout.columns.count) fields like the header, found \(row.fields.count)")
    }
    do { return try body(row) } catch { return .unmappable(row.line, error.reason) }
  }

  /// The UTC day of the time in `column`.
  func day(_ row: Row, _ column: String) throws(RowError) -> Day {
    let text = field(row, column)
    guard let day = ImportTime.day(text, offset: offset) else {
      throw RowError(
        reason: text.isEmpty ? "the \(column) is empty" : "cannot read the date \(ExchangeImport.shown(text))")
    }
    do {
      return try LedgerInput.checked(day, today: today)
    } catch {
      throw RowError(reason: error.message)
    }
  }

  /// The number in `column`, signed as written.
  func amount(_ row: Row, _ column: String) throws(RowError) -> ImportAmount {
    let text = field(row, column)
    guard let amount = ImportAmount.read(text) else {
      throw RowError(
        reason: text.isEmpty
          ? "the \(column) is empty" : "the \(column) \(ExchangeImport.shown(text)) is not a number")
    }
    return amount
  }

  /// The number in `column`, which must not be negative.
  func unsigned(_ row: Row, _ column: String) throws(RowError) -> ImportAmount {
    let amount = try amount(row, column)
    guard amount.decimal >= 0 else {
      throw RowError(reason: "the \(column) \(ExchangeImport.shown(amount.text)) is negative")
    }
    return amount
  }

  /// The number in `column`, or zero when the cell is empty.
  func optionalAmount(_ row: Row, _ column: String) throws(RowError) -> ImportAmount {
    field(row, column).isEmpty ? ImportAmount(text: "0", decimal: 0) : try amount(row, column)
  }

  /// An asset symbol as the ledger holds it.
  func asset(_ raw: String) throws(RowError) -> CurrencyCode {
    guard let symbol = AssetSymbols.symbol(raw) else {
      throw RowError(
        reason: raw.isEmpty ? "the asset is empty" : "\(ExchangeImport.shown(raw)) is not an asset symbol")
    }
    return symbol
  }
}
