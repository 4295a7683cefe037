/// The ledger as CSV, for `rates ledger export --csv` and `rates ledger import`.
///
/// Columns: `id,date,side,amount,currency,counter_amount,counter_currency,rate,with,note,role,import_id`
/// (`role` and `import_id` only for entries `ledger import` read from an exchange's file: a
/// fee or income leg, and the exchange's transaction id).
/// Amounts are written in the shortest form that reads back to the same number (`8950000`,
/// `1500.25`, `1e-08`), so an export read back by ``entries(fromCSV:today:recordedAt:)``
/// reproduces every entry except its id and `recordedAt`.
///
/// Reading matches columns by header name (any order, any case). `id` and `rate` are
/// informational and ignored (imported entries get new ids, and the rate follows from the
/// amounts); `with` and `note` may be left out. Every value is checked as `ledger add` checks
/// it, and every line is checked before anything is returned.
public enum LedgerCSV {
  /// The header, in export order.
  static let columns = [
    "id", "date", "side", "amount", "currency", "counter_amount", "counter_currency", "rate",
    "with", "note", "role", "import_id",
  ]
  /// The columns an import needs.
  static let requiredColumns = [
    "date", "side", "amount", "currency", "counter_amount", "counter_currency",
  ]

  /// Every bad line of an import; nothing may be imported when there is one.
  public struct Problems: Error, Equatable, Sendable {
    /// The problems in line order, each as `line N: …`.
    public var problems: [CSV.ParseError]
    /// Set, with no ``problems``, when the file is separated by something other than `,`:
    /// nothing of it was read.
    public var foreignSeparator: ForeignSeparator? = nil
  }

  /// The separator of a file a spreadsheet saved with something other than `,`, named by an
  /// Excel `sep=` first line or seen in the header line. Such a file is refused rather than
  /// read: its numbers may use `,` as the decimal point (`1,5`), which cannot be told from
  /// a thousands separator.
  public enum ForeignSeparator: Equatable, Sendable {
    /// `;`, as spreadsheets write where `,` is the decimal comma.
    case semicolon
    /// A tab.
    case tab
    /// Another character a `sep=` line names.
    case other(Character)
  }

  // MARK: - Writing

  /// The CSV document for `entries`, in the given order, with CR LF line ends.
  public static func document(_ entries: [LedgerEntry]) -> String {
    CSV.document(header: columns, rows: entries.map(row))
  }

  /// One entry's fields, in ``columns`` order.
  static func row(_ entry: LedgerEntry) -> [String] {
    [
      String(entry.id), entry.date.description,
      entry.transfer?.rawValue ?? entry.side.rawValue, number(entry.amount), entry.currency.text,
      // A transfer without a cost leaves both counter columns empty.
      entry.transfer != nil && entry.cost == nil ? "" : number(entry.counterAmount),
      entry.counterCurrency.text,
      entry.rate.map(number) ?? "", entry.counterparty ?? "", entry.note ?? "",
      entry.role?.rawValue ?? "", entry.importID ?? "",
    ]
  }

  /// A number in the shortest text that reads back exactly: whole numbers without `.0`.
  static func number(_ value: Double) -> String { DecimalText.shortest(value) ?? "" }

  // MARK: - Reading

  /// Whether `text` starts with the header ``document(_:)`` writes (after a BOM, in any case),
  /// so that `import --from auto` can tell the ledger's own CSV from an exchange's export.
  public static func isOwnDocument(_ text: String) -> Bool {
    let first = text.drop { $0 == "\u{FEFF}" }.prefix { !$0.isNewline }
    let names = first.split(separator: ",", omittingEmptySubsequences: false).map {
      $0.trimming(.characters(" \"")).lowercased()
    }
    return names.count >= requiredColumns.count && names.allSatisfy(columns.contains)
      && requiredColumns.allSatisfy(names.contains)
  }

  /// Reads and checks every line of `text`.
  ///
  /// - Parameters:
  ///   - text: The CSV document, header first.
  ///   - today: The UTC day; later dates are refused, as by `ledger add`.
  ///   - recordedAt: The `recordedAt` of every entry read.
  /// - Returns: The entries in file order, each with id 0 (the ledger assigns new ones).
  /// - Throws: ``Problems`` listing every bad line, or the one CSV syntax error.
  public static func entries(fromCSV text: String, today: Day, recordedAt: Date) throws(Problems)
    -> [LedgerEntry]
  {
    if let separator = foreignSeparator(text) {
      throw Problems(problems: [], foreignSeparator: separator)
    }
    var records: [CSV.Record]
    do {
      records = try CSV.parse(text)
    } catch {
      throw Problems(problems: [error])
    }
    // Excel's `sep=,` first line: the file is comma-separated, the header follows.
    if let first = records.first, isSeparatorLine(first) { records.removeFirst() }
    guard let header = records.first else {
      throw Problems(problems: [
        CSV.ParseError(line: 1, reason: "the file is empty: expected a header line")
      ])
    }
    let index = try columnIndex(header)
    var entries: [LedgerEntry] = []
    var problems: [CSV.ParseError] = []
    for record in records.dropFirst() {
      do {
        entries.append(
          try entry(
            record, index: index, width: header.fields.count, today: today,
            recordedAt: recordedAt))
      } catch {
        problems.append(CSV.ParseError(line: record.line, reason: error.message))
      }
    }
    guard problems.isEmpty else { throw Problems(problems: problems) }
    return entries
  }

  /// The separator a spreadsheet used instead of `,` (`;` where `,` is the decimal
  /// comma, or a tab), named by an Excel `sep=` first line or seen in a header line that
  /// splits on it into at least two known column names (others may be unknown); `nil` for
  /// a comma-separated file.
  static func foreignSeparator(_ text: String) -> ForeignSeparator? {
    let first = text.drop { $0 == "\u{FEFF}" }.prefix { !$0.isNewline }
    let line = first.trimming(.whitespaces).lowercased()
    if line.hasPrefix("sep=") {
      switch first.drop(while: { $0 != "=" }).dropFirst().first {
      case ";"?: return .semicolon
      case "\t"?: return .tab
      case ","?, nil: return nil
      case let other?: return .other(other)
      }
    }
    guard !line.contains(",") else { return nil }
    for (character, separator) in [(";", ForeignSeparator.semicolon), ("\t", .tab)] {
      let names = line.components(separatedBy: character).map {
        $0.trimming(.characters(" \"")).lowercased()
      }
      if names.count > 1, names.filter(columns.contains).count >= 2 { return separator }
    }
    return nil
  }

  /// Whether `record` is Excel's `sep=,` line (a comma-separated file's first line).
  static func isSeparatorLine(_ record: CSV.Record) -> Bool {
    guard record.line == 1, record.fields.count == 2, record.fields[1].isEmpty else { return false }
    let field = record.fields[0].drop { $0 == "\u{FEFF}" }
    return field.trimming(.whitespaces).lowercased() == "sep="
  }

  /// The position of each known column in `header`.
  static func columnIndex(_ header: CSV.Record) throws(Problems) -> [String: Int] {
    var index: [String: Int] = [:]
    func problem(_ reason: String) -> Problems {
      Problems(problems: [CSV.ParseError(line: header.line, reason: reason)])
    }
    for (position, raw) in header.fields.enumerated() {
      let name = raw.trimming(.whitespaces).lowercased()
      guard columns.contains(name) else {
        throw problem(
          "unknown column \(LedgerInput.quoted(raw)) in the header: expected "
            + columns.joined(separator: ","))
      }
      guard index[name] == nil else { throw problem("the column '\(name)' appears twice") }
      index[name] = position
    }
    let missing = requiredColumns.filter { index[$0] == nil }
    guard missing.isEmpty else {
      throw problem(
        "the header lacks \(missing.joined(separator: ", ")): expected "
          + columns.joined(separator: ","))
    }
    return index
  }

  /// One entry from one record.
  static func entry(
    _ record: CSV.Record, index: [String: Int], width: Int, today: Day, recordedAt: Date
  ) throws(LedgerInput.Invalid) -> LedgerEntry {
    guard record.fields.count == width else {
      throw LedgerInput.Invalid(
        message: "expected \(width) fields like the header, found \(record.fields.count)")
    }
    func field(_ name: String) -> String {
      index[name].map { record.fields[$0] } ?? ""
    }
    let date = try LedgerInput.day(field("date"), today: today)
    let sideText = field("side").trimming(.whitespaces).lowercased()
    let importID = try LedgerInput.text(field("import_id"), what: "import_id")
    if let transfer = LedgerEntry.Transfer(rawValue: sideText) {
      var entry = try transferEntry(transfer, field: field, date: date, recordedAt: recordedAt)
      entry.role = try role(field("role"), of: transfer)
      entry.importID = importID
      return entry
    }
    guard field("role").trimming(.whitespaces).isEmpty else {
      throw LedgerInput.Invalid(message: "an exchange has no role: 'fee' and 'income' are for withdrawals and deposits")
    }
    let side = try LedgerInput.side(field("side"))
    let amount = try LedgerInput.amount(field("amount"), what: "amount")
    let counterAmount = try LedgerInput.amount(field("counter_amount"), what: "counter_amount")
    let (currency, counterCurrency) = try LedgerInput.pair(
      field("currency"), field("counter_currency"))
    var entry = LedgerEntry(
      id: 0, date: date, side: side, amount: amount, currency: currency,
      counterAmount: counterAmount, counterCurrency: counterCurrency,
      counterparty: try LedgerInput.text(field("with"), what: "with name"),
      note: try LedgerInput.text(field("note"), what: "note"), recordedAt: recordedAt)
    entry.importID = importID
    return entry
  }

  /// A transfer's `role`: empty, `fee` (a withdrawal) or `income` (a deposit).
  static func role(_ text: String, of transfer: LedgerEntry.Transfer) throws(LedgerInput.Invalid)
    -> LedgerEntry.Role?
  {
    let trimmed = text.trimming(.whitespaces).lowercased()
    guard !trimmed.isEmpty else { return nil }
    switch (LedgerEntry.Role(rawValue: trimmed), transfer) {
    case (.fee?, .withdrawal), (.income?, .deposit): return LedgerEntry.Role(rawValue: trimmed)
    default:
      throw LedgerInput.Invalid(
        message: "the role \(LedgerInput.quoted(text)) is not one a \(transfer.rawValue) has: 'fee' is a "
          + "withdrawal's, 'income' a deposit's")
    }
  }

  /// A deposit or withdrawal record: its cost columns are empty or both given.
  static func transferEntry(
    _ transfer: LedgerEntry.Transfer, field: (String) -> String, date: Day, recordedAt: Date
  ) throws(LedgerInput.Invalid) -> LedgerEntry {
    let amount = try LedgerInput.amount(field("amount"), what: "amount")
    let currency = try LedgerInput.currency(field("currency"))
    var cost: (Double, CurrencyCode)?
    let costText = field("counter_amount").trimming(.whitespaces)
    let costCurrency = field("counter_currency").trimming(.whitespaces)
    if !costText.isEmpty || !costCurrency.isEmpty {
      cost = (
        try LedgerInput.amount(costText, what: "counter_amount"),
        try LedgerInput.costCurrency(costCurrency)
      )
    }
    var entry = LedgerEntry.transferEntry(
      transfer, date: date, amount: amount, currency: currency, cost: cost,
      note: try LedgerInput.text(field("note"), what: "note"), recordedAt: recordedAt)
    entry.counterparty = try LedgerInput.text(field("with"), what: "with name")
    return entry
  }
}
