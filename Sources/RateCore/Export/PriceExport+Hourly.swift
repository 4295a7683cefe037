extension PriceExport {
  /// `YYYY-MM-DD HH:MM:SS` in UTC: the time of a ledger price directive.
  public static func utcDateTime(_ time: Date) -> String {
    let seconds = Int64(time.timeIntervalSince1970.rounded(.down))
    let day = Day(containing: time)
    let inDay = Int(seconds - Int64(day.start.timeIntervalSince1970))
    let (hour, minute, second) = (inDay / 3600, inDay % 3600 / 60, inDay % 60)
    return "\(day) " + [hour, minute, second].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
  }
}
