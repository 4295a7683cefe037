/// The ECB's reference-rate XML (`eurofxref-daily.xml`, `eurofxref-hist-90d.xml`):
/// a gesmes envelope holding `<Cube time='YYYY-MM-DD'>` elements, each holding
/// `<Cube currency='USD' rate='1.0801'/>` elements.
///
/// A small scanner, not an XML parser (`XMLParser` is not in FoundationEssentials):
/// it reads only `Cube` start tags and their attributes, skips comments (a proxy's
/// note after the envelope), and is bounded: at most ``maxDays`` days and
/// ``maxRatesPerDay`` rates a day, attribute values of at most 32 bytes.
/// Anything else in the document is ignored.
enum ECBCubeReader {
  /// The most days one document may hold (the 90-day file holds about 64).
  static let maxDays = 400
  /// The most rates one day may hold (the ECB publishes about 30).
  static let maxRatesPerDay = 100

  /// Why a document was refused.
  enum Failure: Error, Equatable {
    case noCubes
    case tooMany
    case badAttribute(String)
    case rateOutsideDay
  }

  /// The days of `data`, in document order, each with its rates as written.
  static func days(_ data: Data) throws(Failure) -> [(day: String, rates: [(String, String)])] {
    let bytes = Array(data)
    var days: [(day: String, rates: [(String, String)])] = []
    var index = 0
    while let open = find(Array("<".utf8), in: bytes, from: index) {
      if starts(bytes, at: open, with: "<!--") {
        index = (find(Array("-->".utf8), in: bytes, from: open + 4) ?? bytes.count) + 3
        continue
      }
      guard let close = find(Array(">".utf8), in: bytes, from: open) else { break }
      index = close + 1
      guard starts(bytes, at: open, with: "<Cube"),
        open + 5 < bytes.count,
        [UInt8(ascii: " "), 9, 10, 13, UInt8(ascii: "/"), UInt8(ascii: ">")]
          .contains(bytes[open + 5])
      else { continue }
      let attributes = try self.attributes(Array(bytes[(open + 5)..<close]))
      if let time = attributes["time"] {
        guard days.count < maxDays else { throw .tooMany }
        days.append((time, []))
      } else if let currency = attributes["currency"], let rate = attributes["rate"] {
        guard !days.isEmpty else { throw .rateOutsideDay }
        guard days[days.count - 1].rates.count < maxRatesPerDay else { throw .tooMany }
        days[days.count - 1].rates.append((currency, rate))
      }
    }
    guard !days.isEmpty else { throw .noCubes }
    return days
  }

  /// The `name='value'` (or `"value"`) pairs of one tag's inside.
  static func attributes(_ tag: [UInt8]) throws(Failure) -> [String: String] {
    var result: [String: String] = [:]
    var index = 0
    while index < tag.count {
      guard let equals = tag[index...].firstIndex(of: UInt8(ascii: "=")) else { break }
      let name = String(decoding: tag[index..<equals], as: UTF8.self).trimming(.whitespacesAndNewlines)
      var start = equals + 1
      while start < tag.count, [32, 9, 10, 13].contains(tag[start]) { start += 1 }
      guard start < tag.count, tag[start] == 39 || tag[start] == 34,
        let end = tag[(start + 1)...].firstIndex(of: tag[start]), end - start - 1 <= 32
      else { throw .badAttribute(UntrustedText.sanitize(String(name.prefix(16)))) }
      result[name] = String(decoding: tag[(start + 1)..<end], as: UTF8.self)
      index = end + 1
    }
    return result
  }

  static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
    guard start < bytes.count, needle.count <= bytes.count else { return nil }
    var index = start
    while index + needle.count <= bytes.count {
      if bytes[index] == needle[0], Array(bytes[index..<(index + needle.count)]) == needle {
        return index
      }
      index += 1
    }
    return nil
  }

  static func starts(_ bytes: [UInt8], at index: Int, with text: String) -> Bool {
    let needle = Array(text.utf8)
    return index + needle.count <= bytes.count
      && Array(bytes[index..<(index + needle.count)]) == needle
  }
}

/// The ECB data API's SDMX CSV (`format=csvdata`): a header row naming the
/// columns (`KEY,FREQ,CURRENCY,CURRENCY_DENOM,…,TIME_PERIOD,OBS_VALUE,…`), then
/// one row per currency and day. Fields may be quoted (a title holds commas),
/// lines end in LF or CRLF; only `CURRENCY`, `TIME_PERIOD` and `OBS_VALUE` are
/// read (and `CURRENCY_DENOM`, which must be EUR, when present).
enum ECBCSVReader {
  /// The most rows one answer may hold (a year of 30 currencies is about 8,000).
  static let maxRows = 50_000

  /// Why an answer was refused.
  enum Failure: Error, Equatable {
    case missingColumn(String)
    case tooMany
    case notEuro(String)
  }

  /// One observation: a currency, a day and its value as written (empty when
  /// the ECB published none that day).
  struct Row: Equatable {
    var currency: String
    var day: String
    var value: String
  }

  /// The rows of `data`.
  static func rows(_ data: Data) throws(Failure) -> [Row] {
    let records = self.records(String(decoding: data, as: UTF8.self))
    guard let header = records.first else { throw .missingColumn("KEY") }
    func column(_ name: String) throws(Failure) -> Int {
      guard let index = header.firstIndex(of: name) else { throw .missingColumn(name) }
      return index
    }
    let currency = try column("CURRENCY")
    let period = try column("TIME_PERIOD")
    let value = try column("OBS_VALUE")
    let denominator = header.firstIndex(of: "CURRENCY_DENOM")
    guard records.count - 1 <= maxRows else { throw .tooMany }
    var rows: [Row] = []
    for record in records.dropFirst() where record.count > max(currency, period, value) {
      if let denominator, record.count > denominator, record[denominator] != "EUR" {
        throw .notEuro(UntrustedText.sanitize(String(record[denominator].prefix(8))))
      }
      rows.append(Row(currency: record[currency], day: record[period], value: record[value]))
    }
    return rows
  }

  /// The records of `text`: fields split at commas outside quotes, `""` an
  /// escaped quote, records at line ends outside quotes; blank lines dropped.
  static func records(_ text: String) -> [[String]] {
    var records: [[String]] = []
    var record: [String] = []
    var field = ""
    var quoted = false
    var iterator = text.unicodeScalars.makeIterator()
    var pending = iterator.next()
    while let scalar = pending {
      pending = iterator.next()
      if quoted {
        if scalar == "\"" {
          if pending == "\"" {
            field.unicodeScalars.append("\"")
            pending = iterator.next()
          } else {
            quoted = false
          }
        } else {
          field.unicodeScalars.append(scalar)
        }
        continue
      }
      switch scalar {
      case "\"": quoted = true
      case ",":
        record.append(field)
        field = ""
      case "\r": continue
      case "\n":
        record.append(field)
        if record != [""] { records.append(record) }
        record = []
        field = ""
      default: field.unicodeScalars.append(scalar)
      }
    }
    record.append(field)
    if record != [""] { records.append(record) }
    return records
  }
}
