import RateCore
import RatesExpectations
import Testing

/// One provider identity: every source a rate can come from is a ``RateSource`` value, kept in
/// files and JSON under the names `rates` always wrote.
@Suite struct RateSourceTests {
  static let snapshotDay = Day(year: 2026, month: 10, day: 30)

  /// The names files and JSON hold, each read back as the same source.
  @Test func everySourceKeepsItsNameAndReadsBack() throws {
    let day = try require(Self.snapshotDay)
    let named: [(RateSource, String)] = [
      (.provider(.coinGecko), "coingecko"), (.provider(.coinDesk), "coindesk"),
      (.provider(.frankfurter), "frankfurter"), (.provider(.coinbase), "coinbase"),
      (.provider(.kraken), "kraken"), (.provider(.ecb), "ecb"), (.ledger, "ledger"),
      (.portfolio, "portfolio"), (.ecbSnapshot(through: nil), "ecb-snapshot"),
      (.ecbSnapshot(through: day), "ECB snapshot to 2026-10-30"),
    ]
    for (source, name) in named {
      expectEqual(source.name, name)
      expectEqual("\(source)", name)
      expectEqual(RateSource(name: name), source)
    }
    expectEqual(Provider.allCases.count, 6)
  }

  /// A name `rates` never writes is no source: a cached quote naming one is not trusted.
  @Test func anUnknownNameIsNoSource() {
    for name in ["", "CoinGecko", "test", "ECB snapshot to", "ECB snapshot to 2026-13-01", "ledger "] {
      expectEqual(RateSource(name: name), nil, "\(name)")
    }
    let json = #"{"base":"BTC","quote":"EUR","rate":1,"source":"test","fetchedAt":"2024-06-10T06:13:20Z"}"#
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    #expect(throws: DecodingError.self) { try decoder.decode(Quote.self, from: Data(json.utf8)) }
  }

  /// JSON holds the name as a plain string, byte for byte as before the type.
  @Test func aQuoteEncodesItsSourceAsItsName() throws {
    let quote = Quote(
      base: "BTC", quote: "EUR", rate: 1, change24hPercent: nil, source: .ledger,
      fetchedAt: Date(timeIntervalSince1970: 0), updatedAt: nil)
    let text = String(decoding: try JSONEncoder().encode(quote), as: UTF8.self)
    expect(text.contains(#""source":"ledger""#))
  }

  /// The names written in messages, and which sources give ECB reference rates.
  @Test func displayNamesAndTheECBRule() throws {
    let day = try require(Self.snapshotDay)
    expectEqual(RateSource.provider(.frankfurter).displayName, "Frankfurter (ECB)")
    expectEqual(RateSource.ledger.displayName, "your ledger")
    expectEqual(RateSource.ecbSnapshot(through: nil).displayName, "the ECB snapshot built into rates")
    expectEqual(RateSource.ecbSnapshot(through: day).displayName, "ECB snapshot to 2026-10-30")
    expect(RateSource.provider(.ecb).isECB && RateSource.ecbSnapshot(through: day).isECB)
    expect(!RateSource.provider(.coinGecko).isECB && !RateSource.ledger.isECB)
    expectEqual(RateSource.provider(.kraken).standsIn, .coinGecko)
    expectEqual(RateSource.provider(.ecb).standsIn, .frankfurter)
    expectEqual(RateSource.ledger.standsIn, nil)
  }
}
