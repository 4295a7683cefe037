import Foundation
import RateCore

// MARK: - The ECB itself

/// A fake of the ECB's own reference-rate services under the path prefix `/ecb`,
/// answering in the real shapes (fixtures/real/ecb, apis.md 4.3) with the same
/// figures as ``FakeFrankfurter`` (``FakeFrankfurter/eurRate(_:day:)``): both
/// publish the ECB's rates.
///
/// - `/ecb/stats/eurofxref/eurofxref-daily.xml`: the gesmes envelope with one
///   `<Cube time=…>` (the newest published working day) and a
///   `<Cube currency=… rate=…/>` per currency.
/// - `/ecb/service/data/EXR/D.USD+GBP.EUR.SP00.A?startPeriod=&endPeriod=&format=csvdata`:
///   the SDMX CSV with the real header, one row per currency and working day,
///   ordered by currency then day, up to the newest published day. No row (a
///   range of closures, an unknown code) is 404 `No results found.`; a key that is
///   not `D.<codes>.EUR.SP00.A` or a missing period is 400.
public enum FakeECB {
  /// The data API's CSV header, as the ECB sends it.
  public static let csvHeader =
    "KEY,FREQ,CURRENCY,CURRENCY_DENOM,EXR_TYPE,EXR_SUFFIX,TIME_PERIOD,OBS_VALUE,OBS_STATUS,OBS_CONF,"
    + "OBS_PRE_BREAK,OBS_COM,TIME_FORMAT,BREAKS,COLLECTION,COMPILING_ORG,DISS_ORG,DOM_SER_IDS,"
    + "PUBL_ECB,PUBL_MU,PUBL_PUBLIC,UNIT_INDEX_BASE,COMPILATION,COVERAGE,DECIMALS,NAT_TITLE,"
    + "SOURCE_AGENCY,SOURCE_PUB,TITLE,TITLE_COMPL,UNIT,UNIT_MULT"

  /// Serves both ECB paths at `now` (read once per request).
  public static func handler(now: @escaping @Sendable () -> Date)
    -> @Sendable (RecordedRequest) -> LoopbackReply
  {
    { request in
      let today = UpdateRhythm.newestECBDay(at: now())
      if request.path == "/ecb/stats/eurofxref/eurofxref-daily.xml" {
        return .text(dailyXML(day: today), status: 200, headers: ["Content-Type": "text/xml"])
      }
      let prefix = "/ecb/service/data/EXR/"
      guard request.path.hasPrefix(prefix) else { return .text("Not Found", status: 404) }
      return csv(key: String(request.path.dropFirst(prefix.count)), query: request.query, today: today)
    }
  }

  /// The daily file for `day`.
  public static func dailyXML(day: Day) -> String {
    let cubes = FakeFrankfurter.eurBase.keys.filter { $0 != "EUR" }.sorted().map {
      "\t\t\t<Cube currency='\($0)' rate='\(FakeFrankfurter.eurRate($0, day: day))'/>"
    }
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
      \t<gesmes:subject>Reference rates</gesmes:subject>
      \t<gesmes:Sender>
      \t\t<gesmes:name>European Central Bank</gesmes:name>
      \t</gesmes:Sender>
      \t<Cube>
      \t\t<Cube time='\(day)'>
      \(cubes.joined(separator: "\n"))
      \t\t</Cube>
      \t</Cube>
      </gesmes:Envelope>

      """
  }

  static func csv(key: String, query: [String: String], today: Day) -> LoopbackReply {
    let parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 5, parts[0] == "D", parts[2] == "EUR", parts[3] == "SP00", parts[4] == "A",
      let start = query["startPeriod"].flatMap(Day.init), let end = query["endPeriod"].flatMap(Day.init)
    else { return .text("Bad request", status: 400) }
    let codes = parts[1].split(separator: "+").map(String.init).filter {
      FakeFrankfurter.eurBase[$0] != nil && $0 != "EUR"
    }.sorted()
    var rows: [String] = []
    let last = min(end, today)
    for code in codes where start <= last {
      for day in start...last {
        guard FakeFrankfurter.isWorkingDay(day), day >= FakeFrankfurter.earliest else { continue }
        rows.append(
          "EXR.D.\(code).EUR.SP00.A,D,\(code),EUR,SP00,A,\(day),\(FakeFrankfurter.eurRate(code, day: day)),"
            + "A,F,,,P1D,,A,,,,,,,99Q1=100,,,4,,4F0,,\(code)/Euro ECB reference exchange rate,"
            + "\"ECB reference exchange rate, \(code)/Euro, 2.15 pm (C.E.T.)\",\(code),0")
      }
    }
    guard !rows.isEmpty else { return .text("No results found.", status: 404) }
    return .text(([csvHeader] + rows).joined(separator: "\n") + "\n", status: 200)
  }
}
