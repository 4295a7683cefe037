/// When a rate may stand for days that have none of their own, and the ECB
/// calendar that decides it. The one home of the carry rule.
///
/// A value is carried only across a real market closure: the ECB publishes no
/// reference rate on weekends and on the TARGET holidays (1 January, Good
/// Friday, Easter Monday, 1 May, 25 and 26 December), and the previous working
/// day's rate stands over them. The longest such closure is four days (Good
/// Friday through Easter Monday), so a value is never carried over more than
/// ``maximumCarriedDays`` days, and never over a working day that has no rate
/// (a hole in the data stays a hole). Coins trade every day: their missing
/// days are never filled.
public enum MarketClosure {
  /// The most days in a row a rate may stand for without one of its own: the
  /// longest ECB closure, Good Friday through Easter Monday.
  public static let maximumCarriedDays = 4

  /// Whether the ECB publishes no reference rate on `day`: a weekend or a
  /// TARGET holiday.
  public static func isECBClosed(_ day: Day) -> Bool {
    if day.isoWeekday >= 6 { return true }
    let (year, month, dayOfMonth) = day.components
    switch (month, dayOfMonth) {
    case (1, 1), (5, 1), (12, 25), (12, 26): return true
    default:
      let easter = easterSunday(year: year)
      return day == easter.adding(days: -2) || day == easter.adding(days: 1)
    }
  }

  /// Whether every day after `valueDay` up to and including `last` is an ECB
  /// closure, at most ``maximumCarriedDays`` of them (none at all is true).
  public static func closedAfter(_ valueDay: Day, through last: Day) -> Bool {
    let count = valueDay.distance(to: last)
    guard count >= 0, count <= maximumCarriedDays else { return false }
    return (0..<count).allSatisfy { isECBClosed(valueDay.adding(days: $0 + 1)) }
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
