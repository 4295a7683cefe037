import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// `Day` and ISO 8601 formatting are total: no instant or count traps.
@Suite struct DayTotalityTests {
  /// Seconds since 1970 that once trapped in `Int(_:)` conversions.
  static let hostileSeconds: [Double] = [
    1e300, -1e300, Double(Int64.max), Double(Int64.min), Double(Int64.max) / 1000, .infinity,
    -.infinity, .nan, .greatestFiniteMagnitude,
  ]

  @Test(arguments: hostileSeconds) func dayContainingAnyInstantIsInRange(_ seconds: Double) {
    let day = Day(containing: Date(timeIntervalSince1970: seconds))
    expect(day >= Day.earliest && day <= Day.latest)
    expectEqual(day.description.count, 10)
    expectEqual(Day(day.description), day)
  }

  @Test func outOfRangeInstantsClampToTheNearestEnd() {
    expectEqual(Day(containing: Date(timeIntervalSince1970: 1e300)), .latest)
    expectEqual(Day(containing: Date(timeIntervalSince1970: -1e300)), .earliest)
    expectEqual(Day(containing: Date(timeIntervalSince1970: .nan)), .earliest)
    expectEqual(Day.latest.description, "9999-12-31")
    expectEqual(Day.earliest.description, "0000-01-01")
    // In range, nothing changes.
    expectEqual(Day(containing: Date(timeIntervalSince1970: 1_718_000_000)).description, "2024-06-10")
    expectEqual(Day(containing: Date(timeIntervalSince1970: -1)).description, "1969-12-31")
  }

  @Test func countsNeverOverflow() {
    expectEqual(Day(daysSinceEpoch: .max), .latest)
    expectEqual(Day(daysSinceEpoch: .min), .earliest)
    expectEqual(Day.latest.adding(days: .max), .latest)
    expectEqual(Day.earliest.adding(days: .min), .earliest)
    expectEqual(Day(daysSinceEpoch: 0).adding(days: .max), .latest)
    expectEqual(Day.earliest.distance(to: .latest), 3_652_424)
    expectEqual(Day(year: 10_000, month: 1, day: 1), nil)
    expectEqual(Day(year: .max, month: 2, day: 28), nil)
    expectEqual(Day(year: -1, month: 1, day: 1), nil)
  }

  @Test(arguments: hostileSeconds) func iso8601FormatsAnyInstant(_ seconds: Double) {
    let text = ISO8601.format(Date(timeIntervalSince1970: seconds))
    expectEqual(text.count, 20)
    expect(text.hasSuffix("Z"))
  }

  @Test func iso8601ClampsAndParsesOnlyWhatItCanWrite() {
    expectEqual(ISO8601.format(Date(timeIntervalSince1970: 1e300)), "9999-12-31T23:59:59Z")
    expectEqual(ISO8601.format(Date(timeIntervalSince1970: -1e300)), "0000-01-01T00:00:00Z")
    expectEqual(ISO8601.format(Date(timeIntervalSince1970: .nan)), "0000-01-01T00:00:00Z")
    expectEqual(ISO8601.format(Date(timeIntervalSince1970: 1_718_000_000)), "2024-06-10T06:13:20Z")
    expectEqual(ISO8601.format(Date(timeIntervalSince1970: -0.5)), "1969-12-31T23:59:59Z")
    expect(ISO8601.parse("2024-06-10T06:13:20.337Z") != nil)
    expect(ISO8601.parse("9999-12-31T23:59:59Z") != nil)
    expectEqual(ISO8601.parse("+10000-01-01T00:00:00Z"), nil)
    expectEqual(ISO8601.parse(String(repeating: "9", count: 500)), nil)
  }

  @Test func jsonEncodingOfAHostileDateDoesNotTrap() throws {
    let data = try JSONCoders.encoder().encode([Date(timeIntervalSince1970: 1e300)])
    expectEqual(String(decoding: data, as: UTF8.self), #"["9999-12-31T23:59:59Z"]"#)
  }
}

/// The calendar-free reading of the dates the cache writes.
@Suite struct WrittenDateTests {
  @Test func theWrittenFormReadsLikeTheFullParser() throws {
    for text in ["2024-06-10T06:13:20Z", "1999-01-04T00:00:00Z", "9999-12-31T23:59:59Z", "0000-01-01T00:00:00Z"] {
      let fast = try require(ISO8601.parseWritten(utf8: text.utf8))
      // Foundation's calendar differs before the Gregorian reform: compare modern days.
      if !text.hasPrefix("0000") { expectEqual(fast, (try Date.ISO8601FormatStyle().parse(text))) }
      expectEqual(ISO8601.format(fast), text)
    }
    for text in [
      "2024-06-10T24:00:00Z", "2024-06-10T06:13:20+00:00", "2024-06-10T06:13:2xZ",
      "2024-02-30T00:00:00Z", "2024-06-10 06:13:20Z",
    ] {
      expectEqual(ISO8601.parseWritten(utf8: text.utf8), nil, "\(text)")
    }
    expectEqual(ISO8601.parse("2024-06-10T06:13:20+00:00"), ISO8601.parseWritten(utf8: "2024-06-10T06:13:20Z".utf8))
  }
}
