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
    append(LedgerDates.formatDay(entry.date), to: &line)
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
    append(LedgerDates.formatInstant(entry.recordedAt), to: &line)
    line.append(UInt8(ascii: "\""))
    if let latest, latest > entry.date {
      append(#","maxDate":""#, to: &line)
      append(LedgerDates.formatDay(latest), to: &line)
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

/// Fast, locale-free reading and writing of the ledger's two date forms.
public enum LedgerDates {
  /// `YYYY-MM-DD`, strictly.
  static func parseDay(_ text: String) -> Day? {
    var text = text
    return text.withUTF8 { day($0, 0..<$0.count) }
  }

  /// `YYYY-MM-DD` in `bytes[range]`, strictly.
  static func day(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Day? {
    let at = range.lowerBound
    guard range.count == 10, bytes[at + 4] == 0x2D, bytes[at + 7] == 0x2D,
      let year = digits(bytes, at..<at + 4), let month = digits(bytes, at + 5..<at + 7),
      let day = digits(bytes, at + 8..<at + 10)
    else { return nil }
    return Day(year: year, month: month, day: day)
  }

  /// `YYYY-MM-DDTHH:MM:SSZ` directly; any other ISO 8601 form through ``ISO8601/parse(_:)``.
  static func parseInstant(_ text: String) -> Date? {
    var copy = text
    return copy.withUTF8 { instant($0, 0..<$0.count) } ?? ISO8601.parse(text)
  }

  /// `YYYY-MM-DDTHH:MM:SSZ` in `bytes[range]`, nil for anything else.
  static func instant(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Date? {
    let at = range.lowerBound
    guard range.count == 20, bytes[at + 10] == UInt8(ascii: "T"), bytes[at + 13] == 0x3A,
      bytes[at + 16] == 0x3A, bytes[at + 19] == UInt8(ascii: "Z"),
      let day = day(bytes, at..<at + 10), let hour = digits(bytes, at + 11..<at + 13),
      let minute = digits(bytes, at + 14..<at + 16), let second = digits(bytes, at + 17..<at + 19),
      hour < 24, minute < 60, second < 60
    else { return nil }
    let seconds = day.daysSinceEpoch * 86_400 + hour * 3600 + minute * 60 + second
    return Date(timeIntervalSince1970: TimeInterval(seconds))
  }

  /// `YYYY-MM-DDTHH:MM:SSZ` in UTC, whole seconds (as ``ISO8601/format(_:)``).
  static func formatInstant(_ date: Date) -> String {
    let seconds = Int(date.timeIntervalSince1970.rounded(.down))
    let day = Day(daysSinceEpoch: Int((Double(seconds) / 86_400).rounded(.down)))
    let second = seconds - day.daysSinceEpoch * 86_400
    return formatDay(day) + "T" + pad(second / 3600) + ":" + pad(second / 60 % 60) + ":"
      + pad(second % 60) + "Z"
  }

  /// `YYYY-MM-DD`: `Day.description`.
  public static func formatDay(_ day: Day) -> String { day.description }

  private static func pad(_ value: Int) -> String {
    NumberText.padded(value, width: 2)
  }

  private static func digits(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
    var value = 0
    for index in range {
      let byte = bytes[index]
      guard (0x30...0x39).contains(byte) else { return nil }
      value = value * 10 + Int(byte - 0x30)
    }
    return value
  }
}
