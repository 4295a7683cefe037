import RateCore

/// Small pieces the full-screen boards (`watch`, the home screen) draw alike.
enum ScreenText {
  /// `14:05:10 UTC`.
  static func clock(_ date: Date) -> String {
    String(ISO8601.format(date).dropFirst(11).prefix(8)) + " UTC"
  }

  /// Reverse video (`ESC[7m`), for changed values, alerts and the selected row.
  static func reverse(_ text: String, _ style: Style) -> String {
    style.enabled ? "\u{1B}[7m\(text)\u{1B}[27m" : text
  }
}
