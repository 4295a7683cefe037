extension Day {
  /// The words a day may be written as besides `YYYY-MM-DD`, with their distance from today.
  public static let relativeWords: [(word: String, days: Int)] = [("today", 0), ("yesterday", -1)]

  /// Reads a day as the user writes it, the one rule for every date a command takes (an
  /// option such as `--date`, `--from` or `--as-of`, an imported ledger row): `today`,
  /// `yesterday` (in any case, UTC) or a strict `YYYY-MM-DD`, spaces around it ignored.
  ///
  /// - Returns: The day, or nil when `text` is none of these.
  public init?(argument text: String, today: Day) {
    let trimmed = text.trimming(.whitespaces)
    if let relative = Day.relativeWords.first(where: { $0.word == trimmed.lowercased() }) {
      self = today.adding(days: relative.days)
    } else if let day = Day(trimmed) {
      self = day
    } else {
      return nil
    }
  }
}
