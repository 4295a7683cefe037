import RatesTestSupport
import Testing

@testable import RateCore

/// Reading the real exports in fixtures/real/exchanges, and entries as short lines that tests
/// spell out by hand from the files' rows.
enum ImportFixtures {
  static let recorded = Date(timeIntervalSince1970: 1_800_000_000)

  static func text(_ path: String) throws -> String {
    try String(contentsOf: Fixtures.url("real/exchanges/" + path), encoding: .utf8)
  }

  /// The file read as `format` (nil: auto).
  static func plan(_ path: String, _ format: ExchangeFormat?) throws -> ExchangeImport.Plan {
    let name = String(path.split(separator: "/").last ?? "")
    return try ExchangeImport.read(try text(path), fileName: name, format: format, recordedAt: recorded)
  }

  /// `2022-02-24 sell 1499.9999 EUR for 0.04746069 BTC @TTWFFE-HZX34-2EEGRM`, or for a
  /// transfer `2022-02-24 withdrawal 2.4 EUR fee @…#fee`; the import id without its family.
  static func line(_ entry: LedgerEntry) -> String {
    let id = entry.importID.map { "@" + $0.drop { $0 != ":" }.dropFirst() } ?? "@-"
    let amount = DecimalText.shortest(entry.amount) ?? "?"
    if let transfer = entry.transfer {
      let role = entry.role.map { " " + $0.rawValue } ?? ""
      return "\(entry.date) \(transfer.rawValue) \(amount) \(entry.currency)\(role) \(id)"
    }
    let counter = DecimalText.shortest(entry.counterAmount) ?? "?"
    return "\(entry.date) \(entry.side.rawValue) \(amount) \(entry.currency) for \(counter) "
      + "\(entry.counterCurrency) \(id)"
  }

  static func lines(_ plan: ExchangeImport.Plan) -> [String] { plan.entries.map(line) }

  /// Entries whose import ids are digests: the id replaced by `@row`.
  static func digestLines(_ plan: ExchangeImport.Plan) -> [String] {
    plan.entries.map { entry in
      var copy = entry
      if let id = entry.importID, let hash = id.firstRange(of: "row-") {
        copy.importID = "x:row" + id[hash.upperBound...].drop { $0.isHexDigit }
      }
      return line(copy)
    }
  }
}
