import RateCore

/// Small pieces the full-screen boards (`watch`, the home screen) draw alike.
enum ScreenText {
  /// `14:05:10 UTC`.
  static func clock(_ date: Date) -> String {
    String(ISO8601.format(date).dropFirst(11).prefix(8)) + " UTC"
  }
}
