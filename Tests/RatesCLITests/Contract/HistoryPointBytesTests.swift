import Foundation
import RateCore
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
    var day = try #require(Day("1999-01-04"))
    var points: [HistoryDocument.Point] = []
    var synthesized: [Synthesized] = []
    for (index, rate) in rates.enumerated() {
      points.append(HistoryDocument.Point(date: day, rate: rate, carried: index % 2 == 0))
      synthesized.append(Synthesized(date: day, rate: rate, carried: index % 2 == 0))
      day = day.adding(days: 1)
    }
    for pretty in [true, false] {
      let encoder = JSONCoders.encoder(pretty: pretty)
      #expect(try encoder.encode(points) == encoder.encode(synthesized))
    }
  }
}
