// libFuzzer entry point for scripts/fuzz.sh: feeds each input to one parser of outside text,
// chosen by RATES_FUZZ_TARGET (an exchange format of `ledger import --from`, `auto`,
// `rates-csv` for the ledger's own CSV, or `ledger-line` for one line of the ledger file).
// A crash, a trap, a hang (-timeout) or unbounded memory (-rss_limit_mb) is a finding;
// a thrown error is the parser refusing the input, as it should.
import FoundationEssentials
@testable import RateCore

#if canImport(Glibc)
  import Glibc
#endif

enum FuzzTarget {
  case exchange(ExchangeFormat?)
  case ratesCSV
  case ledgerLine

  static let chosen: FuzzTarget = {
    let name = getenv("RATES_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    switch name {
    case "auto": return .exchange(nil)
    case "rates-csv": return .ratesCSV
    case "ledger-line": return .ledgerLine
    default:
      guard let format = ExchangeFormat(rawValue: name) else {
        fatalError("RATES_FUZZ_TARGET=\(name) is not a fuzz target")
      }
      return .exchange(format)
    }
  }()
}

let recordedAt = Date(timeIntervalSince1970: 1_780_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: start, count: count)
  switch FuzzTarget.chosen {
  case .exchange(let format):
    let text = String(decoding: bytes, as: UTF8.self)
    _ = try? ExchangeImport.read(text, fileName: "fuzz.csv", format: format, recordedAt: recordedAt)
  case .ratesCSV:
    let text = String(decoding: bytes, as: UTF8.self)
    _ = try? LedgerCSV.entries(fromCSV: text, today: Day(containing: recordedAt), recordedAt: recordedAt)
  case .ledgerLine:
    _ = try? LedgerLineParser.parse(bytes, 0..<count)
  }
  return 0
}
