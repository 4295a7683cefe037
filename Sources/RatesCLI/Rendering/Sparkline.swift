import RateCore

/// One-line charts of a series, one character per value.
enum Sparkline {
  /// The eight UTF-8 levels, lowest first.
  static let unicodeLevels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

  /// The eight ASCII levels, lowest first: a density ramp `_.:-=+*#`.
  static let asciiLevels: [Character] = ["_", ".", ":", "-", "=", "+", "*", "#"]

  /// Renders `values` scaled from their minimum (lowest level) to their maximum (highest).
  ///
  /// When every value is equal the line sits on the fourth level (`▄` or `-`).
  /// A value that is not finite renders as a space and does not affect the
  /// scale. An empty array renders as the empty string.
  /// - Parameters:
  ///   - values: The values, oldest first.
  ///   - ascii: Use ``asciiLevels`` instead of ``unicodeLevels``.
  /// - Returns: A string of exactly `values.count` characters.
  static func render(_ values: [Double], ascii: Bool) -> String {
    let levels = ascii ? asciiLevels : unicodeLevels
    let finite = values.filter(\.isFinite)
    guard let low = finite.min(), let high = finite.max() else {
      return String(repeating: " ", count: values.count)
    }
    let span = high - low
    var result = ""
    for value in values {
      guard value.isFinite else {
        result.append(" ")
        continue
      }
      guard span > 0, span.isFinite else {
        result.append(levels[3])
        continue
      }
      let scaled = ((value - low) / span * Double(levels.count - 1)).rounded()
      let index = Swift.min(Swift.max(Int(scaled), 0), levels.count - 1)
      result.append(levels[index])
    }
    return result
  }

  /// Renders `values` in at most `cells` characters: a longer series is resampled to them
  /// (``fit(_:to:)``), so a column of `cells` holds a series of any length
  /// (CoinGecko's 7 days come as 29 to 169 points); a shorter one keeps a cell per value.
  static func render(_ values: [Double], cells: Int, ascii: Bool) -> String {
    render(fit(values, to: cells), ascii: ascii)
  }

  /// Shrinks `values` to at most `width` by averaging equal buckets; shorter
  /// series are returned unchanged (one column per point). A bucket averages
  /// its finite values; one with none (only gaps) stays `nan`, a blank.
  static func fit(_ values: [Double], to width: Int) -> [Double] {
    let columns = max(1, width)
    guard values.count > columns else { return values }
    return (0..<columns).map { column in
      let start = column * values.count / columns
      let end = max(start + 1, (column + 1) * values.count / columns)
      let bucket = values[start..<min(end, values.count)].filter(\.isFinite)
      return bucket.isEmpty ? .nan : bucket.reduce(0, +) / Double(bucket.count)
    }
  }

  /// The cells of a 7-day trend in `pairs`, `watch` and the home list (which widens it to
  /// 24 on a screen of 150 columns or more).
  static let weekCells = 12

  /// A trend's cells, the one rule of `pairs`, `watch` and the home list: `values` (oldest
  /// first) in at most `cells` characters (``render(_:cells:ascii:)``). Fewer than two finite
  /// values draw nothing (the empty string, a blank cell): one value is no trend, and a flat
  /// `▄` would say the price did not move.
  static func trend(_ values: [Double], cells: Int, ascii: Bool) -> String {
    guard values.lazy.filter(\.isFinite).prefix(2).count == 2 else { return "" }
    return render(values, cells: cells, ascii: ascii)
  }

  /// ``trend(_:cells:ascii:)`` coloured by its direction, first value to last: the week of a
  /// row on the home list, the watch board and `pairs`.
  static func trend(_ values: [Double], cells: Int, ascii: Bool, style: Style) -> String {
    let line = trend(values, cells: cells, ascii: ascii)
    return line.isEmpty ? line : style.change(line, value: (values.last ?? 0) - (values.first ?? 0))
  }

  /// Renders `series` one column per day, shrunk to at most `width` columns
  /// (``fit(_:to:)``); a day without a rate is a blank column.
  static func render(_ series: RateSeries, width: Int, ascii: Bool) -> String {
    render(series.chartPoints.map(\.rate), cells: width, ascii: ascii)
  }
}
