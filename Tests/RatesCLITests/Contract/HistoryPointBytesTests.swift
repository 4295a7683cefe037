import RateCore
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RatesCLI

/// Issue 27: `history --json` points are encoded by hand (one keyed container, for the speed
/// of 10,000 points) and must give exactly the bytes the synthesized encoding gave.
@Suite struct HistoryPointBytesTests {
  /// The point as it was: synthesized `Encodable`.
  struct Synthesized: Encodable {
    var date: Day
    @NullEncoded var rate: Double?
    var carried: Bool
  }

  @Test func handEncodedPointsAreByteForByteTheSynthesizedOnes() throws {
    let rates: [Double?] = [1.0926, nil, 0, 1, 1e-7, 64_321.505, 1e16, 0.1 + 0.2, -2.5]
    var day = try require(Day("1999-01-04"))
    var points: [HistoryDocument.Point] = []
    var synthesized: [Synthesized] = []
    for (index, rate) in rates.enumerated() {
      points.append(HistoryDocument.Point(date: day, rate: rate, carried: index % 2 == 0))
      synthesized.append(Synthesized(date: day, rate: rate, carried: index % 2 == 0))
      day = day.adding(days: 1)
    }
    for pretty in [true, false] {
      let encoder = JSONCoders.encoder(pretty: pretty)
      expect(try encoder.encode(points) == encoder.encode(synthesized))
    }
  }
}

/// Issue 27: the whole `history --json` text, points written by hand, is the encoder's.
@Suite struct HistoryDocumentBytesTests {
  func encoded(_ document: HistoryDocument) throws -> String {
    String(
      decoding: try JSONCoders.encoder(pretty: true).encode(Versioned(document)), as: UTF8.self)
  }

  func document(_ rates: [Double?]) throws -> HistoryDocument {
    var document = HistoryDocument(
      series: RateSeries(
        base: "EUR", quote: "USD", source: .provider(.frankfurter), fetchedAt: fixedNow, points: []),
      stale: false)
    var day = try require(Day("1999-01-04"))
    for (index, rate) in rates.enumerated() {
      document.points.append(.init(date: day, rate: rate, carried: index % 3 == 0))
      day = day.adding(days: 1)
    }
    return document
  }

  @Test func theTextIsTheEncodersForAnyRates() throws {
    var generator = SeededGenerator(state: 0x5EED_0001)  // seeded: a failure repeats
    let odd: [Double?] = [
      1.0926, nil, 0, -0.0, 1, 1e-7, 1.07e-6, 64_321.505, 1e16, 1.5e300, 0.1 + 0.2, -2.5, .leastNonzeroMagnitude,
    ]
    let random = (0..<2000).map { _ in Double?(Double.random(in: 0...100_000, using: &generator)) }
    for rates in [odd, random, [1.5, nil], [nil, nil], [2]] {
      let document = try document(rates)
      expect(try document.prettyJSON() == encoded(document))
    }
  }

  @Test func aRateJSONCannotHoldStillThrowsAsTheEncoderDoes() throws {
    let document = try document([1, .infinity])
    #expect(throws: EncodingError.self) { try document.prettyJSON() }
  }
}
