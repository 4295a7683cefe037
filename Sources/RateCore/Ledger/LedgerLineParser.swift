import Foundation

/// A strict parser of one ledger line: a JSON object whose members are JSON values, read
/// without Foundation's decoder (which costs several microseconds a line, too slow for a
/// hundred thousand lines). Anything that is not valid JSON, or not a valid record, throws.
struct LedgerLineParser {
  let bytes: UnsafeBufferPointer<UInt8>
  var index: Int
  let end: Int

  /// Parses the line `bytes[range]` (without its newline).
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(LedgerLineError)
    -> LedgerRecord
  {
    var parser = LedgerLineParser(bytes: bytes, index: range.lowerBound, end: range.upperBound)
    return try parser.record()
  }

  private init(bytes: UnsafeBufferPointer<UInt8>, index: Int, end: Int) {
    self.bytes = bytes
    self.index = index
    self.end = end
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
        let key = try string()
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

  private mutating func member(_ key: String, into fields: inout Fields) throws(LedgerLineError) {
    guard fields.seen.insert(key).inserted else {
      throw LedgerLineError(detail: "'\(key)' appears twice")
    }
    switch key {
    case "op": fields.op = try string()
    case "id": fields.id = try integer(key)
    case "ids": fields.ids = try integers(key)
    case "date": fields.date = try day(key)
    case "maxDate": fields.maxDate = try day(key)
    case "side": fields.side = try string()
    case "amount": fields.amount = try number(key)
    case "counterAmount": fields.counterAmount = try number(key)
    case "currency": fields.currency = try string()
    case "counterCurrency": fields.counterCurrency = try string()
    case "counterparty": fields.counterparty = try optionalString()
    case "note": fields.note = try optionalString()
    case "recordedAt":
      let text = try string()
      guard let date = LedgerDates.parseInstant(text) else {
        throw LedgerLineError(detail: "recordedAt '\(text)' is not an ISO 8601 date-time")
      }
      fields.recordedAt = date
    default:
      let start = index
      try skipValue(depth: 0)
      fields.unknown.append(UInt8(ascii: ","))
      LedgerLineWriter.appendString(key, to: &fields.unknown)
      fields.unknown.append(UInt8(ascii: ":"))
      fields.unknown.append(contentsOf: bytes[start..<index])
    }
  }

  /// The members of one record as read.
  private struct Fields {
    var seen: Set<String> = []
    var op: String?
    var id: Int?
    var ids: [Int]?
    var date: Day?
    var maxDate: Day?
    var side: String?
    var amount: Double?
    var counterAmount: Double?
    var currency: String?
    var counterCurrency: String?
    var counterparty: String?
    var note: String?
    var recordedAt: Date?
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
      guard let sideText = side else { throw missing("side") }
      guard let side = LedgerEntry.Side(rawValue: sideText) else {
        throw LedgerLineError(detail: "side '\(sideText)' is neither 'sell' nor 'buy'")
      }
      guard let amount else { throw missing("amount") }
      guard let currency else { throw missing("currency") }
      guard let counterAmount else { throw missing("counterAmount") }
      guard let counterCurrency else { throw missing("counterCurrency") }
      guard let recordedAt else { throw missing("recordedAt") }
      let entry = LedgerEntry(
        id: id, date: date, side: side, amount: amount, currency: currency,
        counterAmount: counterAmount, counterCurrency: counterCurrency,
        counterparty: counterparty, note: note, recordedAt: recordedAt)
      return .add(entry, latest: Swift.max(maxDate ?? date, date), unknownMembers: unknown)
    }
  }
}
