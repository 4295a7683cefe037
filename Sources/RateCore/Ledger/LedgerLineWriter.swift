/// Writes ledger lines (see ``LedgerRecord``) as compact JSON, one object per line, without
/// Foundation's encoder (a hundred thousand lines must take milliseconds, not seconds).
///
/// Amounts are written as the shortest text that reads back to the same `Double` (whole
/// numbers without a fraction), dates as `YYYY-MM-DD`, instants as `YYYY-MM-DDTHH:MM:SSZ`.
enum LedgerLineWriter {
  /// The line for `entry`, ending in a newline.
  ///
  /// - Parameters:
  ///   - latest: The latest date added before this line; written as `maxDate` when later than
  ///     the entry's own date, so a backwards reader knows it must look further.
  ///   - unknownMembers: Members read from an older line this version does not know, as
  ///     `,"name":value` text.
  static func add(_ entry: LedgerEntry, latest: Day? = nil, unknownMembers: [UInt8] = [])
    throws(LedgerLineError) -> [UInt8]
  {
    var line: [UInt8] = []
    line.reserveCapacity(256)
    append(#"{"op":"add","id":"#, to: &line)
    append(String(entry.id), to: &line)
    append(#","date":""#, to: &line)
    append(entry.date.description, to: &line)
    if let transfer = entry.transfer {
      append(#"","kind":""#, to: &line)
      append(transfer.rawValue, to: &line)
    } else {
      append(#"","side":""#, to: &line)
      append(entry.side.rawValue, to: &line)
    }
    append(#"","amount":"#, to: &line)
    try appendNumber(entry.amount, to: &line)
    append(#","currency":"#, to: &line)
    appendString(entry.currency.text, to: &line)
    if entry.transfer == nil || entry.cost != nil {
      append(#","counterAmount":"#, to: &line)
      try appendNumber(entry.counterAmount, to: &line)
      append(#","counterCurrency":"#, to: &line)
      appendString(entry.counterCurrency.text, to: &line)
    }
    if let counterparty = entry.counterparty {
      append(#","counterparty":"#, to: &line)
      appendString(counterparty, to: &line)
    }
    if let note = entry.note {
      append(#","note":"#, to: &line)
      appendString(note, to: &line)
    }
    if let importID = entry.importID {
      append(#","importID":"#, to: &line)
      appendString(importID, to: &line)
    }
    if let role = entry.role {
      append(#","role":""#, to: &line)
      append(role.rawValue, to: &line)
      line.append(UInt8(ascii: "\""))
    }
    append(#","recordedAt":""#, to: &line)
    append(ISO8601.format(entry.recordedAt), to: &line)
    line.append(UInt8(ascii: "\""))
    if let latest, latest > entry.date {
      append(#","maxDate":""#, to: &line)
      append(latest.description, to: &line)
      line.append(UInt8(ascii: "\""))
    }
    line.append(contentsOf: unknownMembers)
    append("}\n", to: &line)
    return line
  }

  /// The line removing `ids`, ending in a newline.
  static func remove(_ ids: [Int]) -> [UInt8] {
    Array(#"{"op":"remove","ids":[\#(ids.map(String.init).joined(separator: ","))]}"#.utf8) + [0x0A]
  }

  static func append(_ text: String, to line: inout [UInt8]) {
    line.append(contentsOf: text.utf8)
  }

  /// `value` as the shortest JSON number that reads back exactly.
  static func appendNumber(_ value: Double, to line: inout [UInt8]) throws(LedgerLineError) {
    guard value.isFinite else { throw LedgerLineError(detail: "an amount is not a finite number") }
    if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
      append(String(Int64(value)), to: &line)
    } else {
      // Swift's description is the shortest round-tripping form, and valid JSON: 1e-08, 0.5.
      append(value.description, to: &line)
    }
  }

  /// `text` as a JSON string: quotes, backslashes and control characters escaped.
  static func appendString(_ text: String, to line: inout [UInt8]) {
    line.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): append(#"\""#, to: &line)
      case UInt8(ascii: "\\"): append(#"\\"#, to: &line)
      case 0x0A: append(#"\n"#, to: &line)
      case 0x0D: append(#"\r"#, to: &line)
      case 0x09: append(#"\t"#, to: &line)
      case 0..<0x20:
        let hex = String(byte, radix: 16)
        append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex, to: &line)
      default: line.append(byte)
      }
    }
    line.append(UInt8(ascii: "\""))
  }
}
