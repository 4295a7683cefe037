/// The rate of an ECB currency on a day, and the ECB calendar that decides
/// it: the one home of that rule, used by every history, day lookup,
/// conversion, statistic, export, board and ledger rate.
///
/// The ECB rate for a day is that day's publication, or else the last
/// publication before it when every day between is a day the ECB did not
/// publish (a weekend, a TARGET holiday, a special closure such as
/// 1999-12-31), at most ``maximumCarriedDays`` calendar days back, even when
/// that publication lies before the days asked for. A working day that has
/// no rate is a hole, never bridged. Coins trade every day: their missing
/// days are never filled.
public enum MarketClosure {
  /// The most days in a row a rate may stand for without one of its own: the
  /// longest ECB closure, Good Friday through Easter Monday (also
  /// 2001-12-29 through 2002-01-01).
  public static let maximumCarriedDays = 4

  /// Weekdays without a publication that are no TARGET holiday: the closures
  /// for the year 2000 changeover and the euro cash changeover. The embedded
  /// snapshot has no other (a test walks it).
  public static let specialClosures: Set<Day> = [
    Day(daysSinceEpoch: Day.daysFromCivil(year: 1999, month: 12, day: 31)),
    Day(daysSinceEpoch: Day.daysFromCivil(year: 2001, month: 12, day: 31)),
  ]

  /// Whether the ECB publishes no reference rate on `day`: a weekend, a
  /// TARGET holiday (1 January and 25 December; from 2000 also Good Friday,
  /// Easter Monday, 1 May and 26 December, which were working days in 1999)
  /// or one of ``specialClosures``.
  public static func isECBClosed(_ day: Day) -> Bool {
    if day.isoWeekday >= 6 { return true }
    let (year, month, dayOfMonth) = day.components
    switch (month, dayOfMonth) {
    case (1, 1), (12, 25): return true
    case (5, 1), (12, 26): return year >= 2000
    default:
      if specialClosures.contains(day) { return true }
      guard year >= 2000 else { return false }
      let easter = easterSunday(year: year)
      return day == easter.adding(days: -2) || day == easter.adding(days: 1)
    }
  }

  /// The rate standing on `day`: its own publication (`lookup(day)`), or the
  /// newest one at most ``maximumCarriedDays`` days before it when the ECB
  /// published nothing in between (``rateStands(from:on:today:)``), dated
  /// `day` and marked `carried`. `lookup` answers publications only; it may
  /// be asked for days before any window.
  ///
  /// - Parameter today: the newest day; its own rate may not be published
  ///   yet, so the previous publication still stands on it.
  /// - Returns: the point and the day it was published for.
  public static func standing(on day: Day, today: Day, lookup: (Day) -> RatePoint?)
    -> (point: RatePoint, published: Day)?
  {
    if let own = lookup(day) { return (own, day) }
    guard day <= today else { return nil }
    for back in 1...(maximumCarriedDays + 1) {
      let from = day.adding(days: -back)
      guard let published = lookup(from) else { continue }
      guard rateStands(from: from, on: day, today: today) else { return nil }
      return (RatePoint(date: day, rate: published.rate, carried: true), from)
    }
    return nil
  }

  /// The point of ``standing(on:today:lookup:)``.
  public static func rate(on day: Day, today: Day, lookup: (Day) -> RatePoint?) -> RatePoint? {
    standing(on: day, today: today, lookup: lookup)?.point
  }

  /// The rate of each day of `window` by ``rate(on:today:lookup:)``, oldest
  /// first; days with none are left out (they are the series' gaps).
  public static func rates(
    in window: ClosedRange<Day>, today: Day, lookup: (Day) -> RatePoint?
  ) -> [RatePoint] {
    window.compactMap { rate(on: $0, today: today, lookup: lookup) }
  }

  /// The first day whose publication may stand on `first`: `first` itself,
  /// or the working day before the closure it lies in, at most
  /// ``maximumCarriedDays`` days earlier. What a window starting on `first`
  /// must also read.
  public static func reach(back first: Day) -> Day {
    var day = first
    while isECBClosed(day), day.distance(to: first) < maximumCarriedDays {
      day = day.adding(days: -1)
    }
    return day
  }

  /// Whether every day after `valueDay` up to and including `last` is an ECB
  /// closure, at most ``maximumCarriedDays`` of them (none at all is true).
  public static func closedAfter(_ valueDay: Day, through last: Day) -> Bool {
    let count = valueDay.distance(to: last)
    guard count >= 0, count <= maximumCarriedDays else { return false }
    return (0..<count).allSatisfy { isECBClosed(valueDay.adding(days: $0 + 1)) }
  }

  /// The last day a rate published on `valueDay` stands on across the
  /// closures right after it (`valueDay` itself before a working day): how
  /// far data that ends on `valueDay` (the snapshot) reaches.
  public static func standsThrough(_ valueDay: Day) -> Day {
    var day = valueDay
    while closedAfter(valueDay, through: day.adding(days: 1)) { day = day.adding(days: 1) }
    return day
  }

  /// Whether an ECB rate published on `valueDay` still stands on `day`:
  /// across closures only, and on `today`, whose own rate may not be
  /// published yet (about 16:00 CET), after them.
  public static func rateStands(from valueDay: Day, on day: Day, today: Day) -> Bool {
    guard valueDay < day, day <= today else { return false }
    if closedAfter(valueDay, through: day) { return true }
    return day == today && closedAfter(valueDay, through: day.adding(days: -1))
  }

  /// Easter Sunday of `year` in the Gregorian calendar (the anonymous
  /// Gregorian algorithm, also known as Meeus/Jones/Butcher).
  static func easterSunday(year: Int) -> Day {
    let a = year % 19
    let b = year / 100
    let c = year % 100
    let f = (b + 8) / 25
    let g = (b - f + 1) / 3
    let h = (19 * a + b - b / 4 - g + 15) % 30
    let l = (32 + 2 * (b % 4) + 2 * (c / 4) - h - c % 4) % 7
    let m = (a + 11 * h + 22 * l) / 451
    let month = (h + l - 7 * m + 114) / 31
    let dayOfMonth = (h + l - 7 * m + 114) % 31 + 1
    return Day(daysSinceEpoch: Day.daysFromCivil(year: year, month: month, day: dayOfMonth))
  }
}
