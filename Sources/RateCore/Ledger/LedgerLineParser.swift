/// A strict parser of one ledger line: a JSON object whose members are JSON values, read
/// without Foundation's decoder (which costs several microseconds a line, too slow for a
/// hundred thousand lines). Anything that is not valid JSON, or not a valid record, throws.
struct LedgerLineParser {
  let bytes: UnsafeBufferPointer<UInt8>
  var index: Int
  let end: Int
  /// Where the line starts in `bytes`: columns count from it.
  let start: Int

  /// Parses the line `bytes[range]` (without its newline).
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>)
    throws(LedgerLineError)
    -> LedgerRecord
  {
    var parser = LedgerLineParser(bytes: bytes, index: range.lowerBound, end: range.upperBound)
    return try parser.record()
  }

  private init(bytes: UnsafeBufferPointer<UInt8>, index: Int, end: Int) {
    self.bytes = bytes
    self.index = index
    self.end = end
    self.start = index
  }

  /// The column of `position` in its line, from 1, in characters (Unicode scalars): not the
  /// offset in the file.
  func column(_ position: Int) -> Int {
    var column = 1
    for offset in start..<Swift.min(position, end) where bytes[offset] & 0xC0 != 0x80 { column += 1 }
    return column
  }

  // MARK: - Records

  private mutating func record() throws(LedgerLineError) -> LedgerRecord {
    var fields = Fields()
    skipSpace()
    try expect(UInt8(ascii: "{"))
    skipSpace()
    if peek() == UInt8(ascii: "}") {
      index += 1
    } else {
      while true {
        skipSpace()
        let key = try self.key()
        skipSpace()
        try expect(UInt8(ascii: ":"))
        skipSpace()
        try member(key, into: &fields)
        skipSpace()
        if peek() == UInt8(ascii: ",") {
          index += 1
          continue
        }
        try expect(UInt8(ascii: "}"))
        break
      }
    }
    skipSpace()
    guard index == end else { throw LedgerLineError(detail: "unexpected text after the record") }
    return try fields.record()
  }

  /// The members a record may have.
  enum Key: String, CaseIterable {
    case op, id, ids, date, maxDate, side, amount, counterAmount, currency, counterCurrency
    case counterparty, note, recordedAt, kind, importID, role

    static let utf8 = allCases.map { ($0, Array($0.rawValue.utf8)) }

    /// The key's bit in ``Fields/seen``.
    var bit: UInt16 { UInt16(1) << UInt16(Self.allCases.firstIndex(of: self) ?? 15) }
  }

  /// A member name: a known key, matched on its bytes without making a string, or another.
  private mutating func key() throws(LedgerLineError) -> Result<Key, UnknownKey> {
    if let range = try plainString() {
      for (key, name) in Key.utf8 where name.count == range.count {
        if bytes[range].elementsEqual(name) { return .success(key) }
      }
      return .failure(UnknownKey(name: try utf8(range)))
    }
    let name = try string()
    return Key(rawValue: name).map { .success($0) } ?? .failure(UnknownKey(name: name))
  }

  /// A member this version does not know.
  struct UnknownKey: Error {
    var name: String
  }

  private mutating func member(_ key: Result<Key, UnknownKey>, into fields: inout Fields)
    throws(LedgerLineError)
  {
    let known: Key
    switch key {
    case .success(let found): known = found
    case .failure(let unknown):
      guard fields.unknownSeen.insert(unknown.name).inserted else {
        throw LedgerLineError(detail: "'\(unknown.name)' appears twice")
      }
      let start = index
      try skipValue(depth: 0)
      fields.unknown.append(UInt8(ascii: ","))
      LedgerLineWriter.appendString(unknown.name, to: &fields.unknown)
      fields.unknown.append(UInt8(ascii: ":"))
      fields.unknown.append(contentsOf: bytes[start..<index])
      return
    }
    guard fields.seen & known.bit == 0 else {
      throw LedgerLineError(detail: "'\(known.rawValue)' appears twice")
    }
    fields.seen |= known.bit
    switch known {
    case .op: fields.op = try string()
    case .id: fields.id = try integer("id")
    case .ids: fields.ids = try integers("ids")
    case .date: fields.date = try day("date")
    case .maxDate: fields.maxDate = try day("maxDate")
    case .side: fields.side = try string()
    case .amount: fields.amount = try number("amount")
    case .counterAmount: fields.counterAmount = try number("counterAmount")
    case .currency: fields.currency = CurrencyCode(try string())
    case .counterCurrency: fields.counterCurrency = CurrencyCode(try string())
    case .counterparty: fields.counterparty = try optionalString()
    case .note: fields.note = try optionalString()
    case .recordedAt: fields.recordedAt = try instant()
    case .kind: fields.kind = try string()
    case .importID: fields.importID = try string()
    case .role: fields.role = try string()
    }
  }

  /// The members of one record as read.
  private struct Fields {
    var seen: UInt16 = 0
    var unknownSeen: Set<String> = []
    var op: String?
    var id: Int?
    var ids: [Int]?
    var date: Day?
    var maxDate: Day?
    var side: String?
    var amount: Double?
    var counterAmount: Double?
    var currency: CurrencyCode?
    var counterCurrency: CurrencyCode?
    var counterparty: String?
    var note: String?
    var recordedAt: Date?
    var kind: String?
    var importID: String?
    var role: String?
    var unknown: [UInt8] = []

    func record() throws(LedgerLineError) -> LedgerRecord {
      switch op {
      case "add": return try add()
      case "remove":
        guard let ids, !ids.isEmpty else {
          throw LedgerLineError(detail: "a remove record needs 'ids', a list of exchange ids")
        }
        return .remove(ids: ids)
      case let other?: throw LedgerLineError(detail: "unknown op '\(other)'")
      case nil: throw LedgerLineError(detail: "missing 'op'")
      }
    }

    func add() throws(LedgerLineError) -> LedgerRecord {
      func missing(_ name: String) -> LedgerLineError {
        LedgerLineError(detail: "missing '\(name)'")
      }
      guard let id else { throw missing("id") }
      guard id > 0 else { throw LedgerLineError(detail: "id \(id) is not a positive number") }
      guard let date else { throw missing("date") }
      if let kind { return try transfer(kind, id: id, date: date) }
      guard let sideText = side else { throw missing("side") }
      guard let side = LedgerEntry.Side(rawValue: sideText) else {
        throw LedgerLineError(detail: "side '\(sideText)' is neither 'sell' nor 'buy'")
      }
      guard let amount else { throw missing("amount") }
      guard let currency else { throw missing("currency") }
      guard let counterAmount else { throw missing("counterAmount") }
      guard let counterCurrency else { throw missing("counterCurrency") }
      guard let recordedAt else { throw missing("recordedAt") }
      var entry = LedgerEntry(
        id: id, date: date, side: side, amount: amount, currency: currency,
        counterAmount: counterAmount, counterCurrency: counterCurrency,
        counterparty: counterparty, note: note, recordedAt: recordedAt)
      try origin(&entry)
      return .add(entry, latest: Swift.max(maxDate ?? date, date), unknownMembers: unknown)
    }

    /// Sets an imported entry's `importID` and `role`.
    func origin(_ entry: inout LedgerEntry) throws(LedgerLineError) {
      entry.importID = importID
      guard let role else { return }
      guard let known = LedgerEntry.Role(rawValue: role), entry.transfer != nil else {
        throw LedgerLineError(detail: "role '\(role)' is neither 'fee' nor 'income' on a transfer")
      }
      entry.role = known
    }

    /// A deposit or withdrawal line: no side, and a cost only when the user gave one.
    func transfer(_ kindText: String, id: Int, date: Day) throws(LedgerLineError) -> LedgerRecord {
      guard let kind = LedgerEntry.Transfer(rawValue: kindText) else {
        throw LedgerLineError(detail: "kind '\(kindText)' is neither 'deposit' nor 'withdrawal'")
      }
      guard side == nil else { throw LedgerLineError(detail: "a \(kindText) has no 'side'") }
      guard let amount else { throw LedgerLineError(detail: "missing 'amount'") }
      guard let currency else { throw LedgerLineError(detail: "missing 'currency'") }
      guard let recordedAt else { throw LedgerLineError(detail: "missing 'recordedAt'") }
      guard (counterAmount == nil) == (counterCurrency == nil) else {
        throw LedgerLineError(detail: "a cost needs both 'counterAmount' and 'counterCurrency'")
      }
      let cost = counterAmount.flatMap { amount in counterCurrency.map { (amount, $0) } }
      var entry = LedgerEntry.transferEntry(
        kind, id: id, date: date, amount: amount, currency: currency, cost: cost, note: note,
        recordedAt: recordedAt)
      entry.counterparty = counterparty
      try origin(&entry)
      return .add(entry, latest: Swift.max(maxDate ?? date, date), unknownMembers: unknown)
    }
  }
}
