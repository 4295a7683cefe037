extension PriceExport {
  /// `YYYY-MM-DD HH:MM:SS` in UTC: the time of a ledger price directive.
  public static func utcDateTime(_ time: Date) -> String {
    let written = ISO8601.format(time)
    return written.prefix(10) + " " + written.dropFirst(11).dropLast()
  }
}
