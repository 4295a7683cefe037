/// A calendar day in UTC, written `YYYY-MM-DD`.
///
/// Rates are daily values, and every provider speaks of days in UTC, so the
/// domain uses this small value instead of `Date` wherever a day is meant.
/// It encodes to and decodes from its `YYYY-MM-DD` string.
///
/// Days run from ``earliest`` (0000-01-01) to ``latest`` (9999-12-31), the
/// days a four-digit `YYYY-MM-DD` can name. Every initializer and every
/// operation is total: values beyond that range are clamped to it, so no
/// `Date` or count, however absurd (`NaN`, `1e300` s, `Int.max` days), traps.
public struct Day: Hashable, Strideable, Sendable, CustomStringConvertible {
  /// 0000-01-01, the first day a `Day` can be.
  public static let earliest = Day(uncheckedDaysSinceEpoch: -719_528)
  /// 9999-12-31, the last day a `Day` can be.
  public static let latest = Day(uncheckedDaysSinceEpoch: 2_932_896)

  /// Days since 1970-01-01 (negative before it).
  public let daysSinceEpoch: Int

  /// Creates a day from its count of days since 1970-01-01, clamped to
  /// ``earliest``...``latest``.
  public init(daysSinceEpoch: Int) {
    self.daysSinceEpoch = min(
      max(daysSinceEpoch, Day.earliest.daysSinceEpoch), Day.latest.daysSinceEpoch)
  }

  private init(uncheckedDaysSinceEpoch days: Int) {
    self.daysSinceEpoch = days
  }

  /// The UTC day that contains `date`, clamped to ``earliest``...``latest``;
  /// a `NaN` instant gives ``earliest``.
  public init(containing date: Date) {
    let days = (date.timeIntervalSince1970 / 86_400).rounded(.down)
    guard !days.isNaN else {
      self = .earliest
      return
    }
    let lower = Double(Day.earliest.daysSinceEpoch)
    let upper = Double(Day.latest.daysSinceEpoch)
    self.init(daysSinceEpoch: Int(min(max(days, lower), upper)))
  }

  /// Parses a strict `YYYY-MM-DD` string; returns `nil` for anything else,
  /// including impossible dates such as `2024-02-30`.
  public init?(_ text: some StringProtocol) {
    self.init(utf8: text.utf8)
  }

  /// ``init(_:)`` on the text's UTF-8 bytes, such as a range of a ledger line's.
  init?(utf8: some Sequence<UInt8>) {
    // Byte by byte: the form is ASCII, and a warm command reads the days and dates of its
    // cache entries (splitting into Characters cost ~11 k instructions a day).
    var (year, month, day, index) = (0, 0, 0, 0)
    for byte in utf8 {
      if index == 4 || index == 7 {
        guard byte == UInt8(ascii: "-") else { return nil }
      } else {
        guard index < 10, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        let digit = Int(byte - UInt8(ascii: "0"))
        switch index {
        case ..<4: year = year * 10 + digit
        case ..<7: month = month * 10 + digit
        default: day = day * 10 + digit
        }
      }
      index += 1
    }
    guard index == 10 else { return nil }
    self.init(year: year, month: month, day: day)
  }

  /// Creates a day from its civil year (0–9999), month (1–12) and day of
  /// month; `nil` when the combination does not exist.
  public init?(year: Int, month: Int, day: Int) {
    guard (0...9999).contains(year), (1...12).contains(month), day >= 1,
      day <= Day.length(ofMonth: month, year: year)
    else { return nil }
    self.daysSinceEpoch = Day.daysFromCivil(year: year, month: month, day: day)
  }

  /// The year, month and day of month.
  public var components: (year: Int, month: Int, day: Int) {
    Day.civil(fromDays: daysSinceEpoch)
  }

  /// The instant this day starts (00:00:00 UTC).
  public var start: Date {
    Date(timeIntervalSince1970: TimeInterval(daysSinceEpoch) * 86_400)
  }

  /// The instant this day ends, which is the start of the next day.
  public var end: Date { adding(days: 1).start }

  /// The day `count` days later (earlier when negative), clamped to
  /// ``earliest``...``latest``.
  public func adding(days count: Int) -> Day {
    let (sum, overflow) = daysSinceEpoch.addingReportingOverflow(count)
    guard !overflow else { return count < 0 ? .earliest : .latest }
    return Day(daysSinceEpoch: sum)
  }

  /// Days from `self` to `other` (positive when `other` is later).
  public func distance(to other: Day) -> Int {
    other.daysSinceEpoch - daysSinceEpoch
  }

  /// ``adding(days:)``: what makes a range of days a sequence of its days.
  public func advanced(by count: Int) -> Day { adding(days: count) }

  /// ISO weekday: 1 is Monday, 7 is Sunday.
  public var isoWeekday: Int {
    // 1970-01-01 was a Thursday (4).
    let value = (daysSinceEpoch + 3) % 7
    return (value < 0 ? value + 7 : value) + 1
  }

  /// `YYYY-MM-DD`.
  public var description: String {
    let (year, month, day) = components
    return NumberText.padded(year, width: 4) + "-" + NumberText.padded(month, width: 2) + "-"
      + NumberText.padded(day, width: 2)
  }

  /// The day's civil year, such as 2026.
  public var year: Int { Day.civil(fromDays: daysSinceEpoch).year }

  public static func < (lhs: Day, rhs: Day) -> Bool {
    lhs.daysSinceEpoch < rhs.daysSinceEpoch
  }

  // Howard Hinnant's civil-from-days algorithms: exact for the proleptic
  // Gregorian calendar and independent of the process's locale and time zone.
  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  static func length(ofMonth month: Int, year: Int) -> Int {
    switch month {
    case 2:
      let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
      return leap ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }
}

extension Day: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let day = Day(text) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "expected a YYYY-MM-DD date, found '\(text)'")
    }
    self = day
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
