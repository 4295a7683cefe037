import RateCore

/// A multi-row line chart of a rate series, with a value axis and a date axis.
///
/// ```
///  86,200.00 ┤         ╭╮
///  85,400.00 ┤   ╭─────╯╰╮
///  84,600.00 ┤───╯       ╰─
///            2024-03-01   2024-03-14
/// ```
enum LineChart {
  /// Plot columns below which the value labels are dropped to make room.
  static let minimumPlotWidthWithLabels = 8

  /// Renders `points` (oldest first) as `height` plot rows plus one date-axis line.
  ///
  /// - The value axis on the left labels the top row with the maximum, the
  ///   bottom row with the minimum and, from 3 rows up, the middle row with
  ///   the value that row stands for, all with ``RateFormat/number(_:)``, or
  ///   with as many more decimals as it takes for them to differ.
  ///   With all values equal the line sits on the middle row, its only label.
  ///   If labels would leave fewer than 8 plot columns they are left out.
  /// - Each plot column is one value. With more points than columns, points
  ///   are split into equal buckets drawn at their mean, except that the
  ///   bucket holding the overall maximum (or minimum) is drawn at it, so the
  ///   line always touches the labelled extremes. With fewer points each
  ///   point is drawn at its own value in the column nearest its place, and
  ///   the columns between two points interpolate, so the line passes through
  ///   every point, peaks included.
  /// - The date axis puts the first date under the first column, the last
  ///   date ending under the last column and, when it fits with two spaces
  ///   either side, the date of the middle column in the middle.
  /// - UTF-8 draws `─ │ ╭ ╮ ╰ ╯` and a `┤`/`│` axis; ASCII draws `-`, `|`,
  ///   `*` at the turns and a `+`/`|` axis.
  ///
  /// A point with a non-finite rate is a day without one (a gap, see
  /// ``RateSeries/chartPoints``): it keeps its place on the date axis, its
  /// column stays blank and the line breaks there rather than joining the
  /// points either side of it.
  /// - Parameters:
  ///   - points: The series, oldest first.
  ///   - width: The maximum width of every line, in columns.
  ///   - height: The number of plot rows (the result has `height + 1` lines).
  ///   - ascii: Draw with ASCII only.
  ///   - cursor: The index in `points` of a point to mark with a vertical
  ///     line (`│`, ASCII `|`) through the blank cells of its plot column
  ///     (see ``cursorColumn(pointIndex:pointCount:plotWidth:)``), a gap's
  ///     blank column included; `nil` or out of range draws no marker.
  /// - Returns: The lines without trailing spaces; empty when there is no
  ///   finite point, `height < 1` or `width` leaves no room for a plot column.
  static func render(
    points: [RatePoint], width: Int, height: Int, ascii: Bool, cursor: Int? = nil
  ) -> [String] {
    let cursor = cursor.flatMap { points.indices.contains($0) ? $0 : nil }
    let finite = points.map(\.rate).filter(\.isFinite)
    guard let low = finite.min(), let high = finite.max(), height >= 1, width >= 2
    else { return [] }
    let rows = height

    var labels = valueLabels(low: low, high: high, rows: rows)
    var labelWidth = labels.values.map(\.count).max() ?? 0
    if width - (labelWidth + 2) < minimumPlotWidthWithLabels {
      labels = [:]
      labelWidth = 0
    }
    let prefixWidth = labels.isEmpty ? 1 : labelWidth + 2
    let plotWidth = width - prefixWidth
    guard plotWidth >= 1 else { return [] }

    let glyphs: Glyphs = ascii ? .ascii : .unicode
    let columns = columnValues(points.map(\.rate), count: plotWidth, low: low, high: high)
    var grid = plot(columns, rows: rows, low: low, high: high, glyphs: glyphs)
    if let cursor {
      let column = cursorColumn(pointIndex: cursor, pointCount: points.count, plotWidth: plotWidth)
      for index in 0..<rows where grid[index][column] == " " {
        grid[index][column] = glyphs.cursor
      }
    }
    var lines = (0..<rows).map { index in
      (axisPrefix(labels[index], labelled: !labels.isEmpty, width: labelWidth, glyphs: glyphs)
        + String(grid[index])).withoutTrailingSpaces
    }
    lines.append(
      dateAxis(points: points, plotStart: prefixWidth, plotWidth: plotWidth))
    return lines
  }

  /// The plot columns ``render(points:width:height:ascii:cursor:)`` draws
  /// for `points` in `width` (the width less the value axis); 0 when none.
  static func plotWidth(points: [RatePoint], width: Int, height: Int = 12) -> Int {
    let rates = points.map(\.rate).filter(\.isFinite)
    guard let low = rates.min(), let high = rates.max(), height >= 1, width >= 2 else { return 0 }
    let labelWidth = valueLabels(low: low, high: high, rows: height).values.map(\.count).max() ?? 0
    if width - (labelWidth + 2) < minimumPlotWidthWithLabels { return max(0, width - 1) }
    return max(0, width - (labelWidth + 2))
  }

  /// The value labels by row (0 is the top row): the high, the low and the middle.
  /// Each with enough decimals to differ from the others (``RateFormat/distinct(_:format:)``).
  static func valueLabels(low: Double, high: Double, rows: Int) -> [Int: String] {
    guard high != low else { return [(rows - 1) / 2: RateFormat.number(high)] }
    var values = [0: high]
    if rows >= 2 { values[rows - 1] = low }
    if rows >= 3 {
      let middle = (rows - 1) / 2
      values[middle] = high - (high - low) * Double(middle) / Double(rows - 1)
    }
    let rowsInOrder = values.keys.sorted()
    let texts = RateFormat.distinct(rowsInOrder.compactMap { values[$0] })
    return Dictionary(uniqueKeysWithValues: zip(rowsInOrder, texts))
  }

  /// The left margin of a row: its label and a tick, or the bare axis.
  static func axisPrefix(_ label: String?, labelled: Bool, width: Int, glyphs: Glyphs) -> String {
    guard labelled else { return String(glyphs.axis) }
    guard let label else { return String(repeating: " ", count: width + 1) + String(glyphs.axis) }
    return String(repeating: " ", count: width - label.count) + label + " " + String(glyphs.tick)
  }

  /// The line through `columns` on a grid of `rows`, each column entering at
  /// the previous column's row and leaving at its own.
  static func plot(
    _ columns: [Double], rows: Int, low: Double, high: Double, glyphs: Glyphs
  ) -> [[Character]] {
    func row(_ value: Double) -> Int {
      if high == low { return (rows - 1) / 2 }
      let fromBottom = Int(((value - low) / (high - low) * Double(rows - 1)).rounded())
      return (rows - 1) - Swift.min(Swift.max(fromBottom, 0), rows - 1)
    }
    var grid = Array(repeating: Array(repeating: Character(" "), count: columns.count), count: rows)
    for (column, value) in columns.enumerated() where value.isFinite {
      let exit = row(value)
      // After a gap (a blank column) the line starts again.
      let entry = column == 0 || !columns[column - 1].isFinite ? exit : row(columns[column - 1])
      if entry == exit {
        grid[exit][column] = glyphs.horizontal
      } else if exit < entry {  // rising: exit is higher up
        grid[entry][column] = glyphs.upFromLeft
        grid[exit][column] = glyphs.rightFromBelow
        for between in (exit + 1)..<entry { grid[between][column] = glyphs.vertical }
      } else {  // falling
        grid[entry][column] = glyphs.downFromLeft
        grid[exit][column] = glyphs.rightFromAbove
        for between in (entry + 1)..<exit { grid[between][column] = glyphs.vertical }
      }
    }
    return grid
  }

  // MARK: - Columns

  /// Resamples `values` to exactly `count` column values; a column with no
  /// finite value (a gap) is `nan`.
  static func columnValues(_ values: [Double], count: Int, low: Double, high: Double)
    -> [Double]
  {
    let n = values.count
    guard n > 0, count > 0 else { return [] }
    if n == 1 { return Array(repeating: values[0], count: count) }
    if n <= count {
      guard count > 1 else { return [values[0]] }
      // Each point owns the column nearest its place on the stretched line (as
      // ``cursorColumn(pointIndex:pointCount:plotWidth:)`` finds it) and is drawn
      // there at its own value, peaks included; columns between two points
      // interpolate, unless one of the two is a gap: then they stay blank.
      let anchors = (0..<n).map { cursorColumn(pointIndex: $0, pointCount: n, plotWidth: count) }
      var result = Array(repeating: Double.nan, count: count)
      for index in 0..<(n - 1) {
        let (from, to) = (anchors[index], anchors[index + 1])
        let (start, end) = (values[index], values[index + 1])
        for column in from...to {
          let fraction = to == from ? 0 : Double(column - from) / Double(to - from)
          let between = start.isFinite && end.isFinite ? start + (end - start) * fraction : .nan
          result[column] = column == from ? start : column == to ? end : between
        }
      }
      return result
    }
    return (0..<count).map { column in
      let bucket = values[bucketRange(column, count: count, total: n)].filter(\.isFinite)
      if bucket.isEmpty { return .nan }
      if bucket.contains(high) { return high }
      if bucket.contains(low) { return low }
      return bucket.reduce(0, +) / Double(bucket.count)
    }
  }

  /// The indices of the points in column `column` when `total > count`.
  static func bucketRange(_ column: Int, count: Int, total: Int) -> Range<Int> {
    (column * total / count)..<((column + 1) * total / count)
  }

  /// The index of the point shown in `column`.
  static func pointIndex(column: Int, count: Int, total: Int) -> Int {
    if total > count { return bucketRange(column, count: count, total: total).lowerBound }
    guard count > 1 else { return 0 }
    let position = Double(column) * Double(total - 1) / Double(count - 1)
    return Swift.min(Int(position.rounded()), total - 1)
  }

  /// The plot column that shows point `pointIndex` of `pointCount`, the
  /// inverse of the resampling: with more points than columns, the column
  /// whose bucket holds the point; with fewer, the column nearest the
  /// point's position on the stretched line (a single point is column 0,
  /// under its date).
  static func cursorColumn(pointIndex: Int, pointCount: Int, plotWidth: Int) -> Int {
    guard pointCount > 1, plotWidth > 1 else { return 0 }
    let index = Swift.min(Swift.max(pointIndex, 0), pointCount - 1)
    if pointCount > plotWidth {
      // The largest column c with c * total / count <= index.
      return Swift.min(((index + 1) * plotWidth - 1) / pointCount, plotWidth - 1)
    }
    let position = Double(index) * Double(plotWidth - 1) / Double(pointCount - 1)
    return Swift.min(Int(position.rounded()), plotWidth - 1)
  }

  // MARK: - Date axis

  static func dateAxis(points: [RatePoint], plotStart: Int, plotWidth: Int) -> String {
    guard let first = points.first?.date, let last = points.last?.date else { return "" }
    let total = plotStart + plotWidth
    let length = first.description.count  // 10 for YYYY-MM-DD
    let gap = 2
    var line = Array(repeating: Character(" "), count: total)
    func place(_ text: String, at start: Int) {
      for (offset, character) in text.enumerated() where start + offset < total {
        line[start + offset] = character
      }
    }
    let lastStart = total - length
    var firstStart = plotStart
    if first == last || lastStart - gap - length < 0 {
      // Room (or need) for one date only.
      if total >= length {
        place(first.description, at: Swift.min(plotStart, total - length))
      }
    } else {
      firstStart = Swift.min(firstStart, lastStart - gap - length)
      place(first.description, at: firstStart)
      place(last.description, at: lastStart)
      let middleColumn = plotWidth / 2
      let middleDate =
        points[pointIndex(column: middleColumn, count: plotWidth, total: points.count)].date
      let middleStart = plotStart + middleColumn - length / 2
      if middleDate != first, middleDate != last,
        middleStart >= firstStart + length + gap,
        middleStart + length + gap <= lastStart
      {
        place(middleDate.description, at: middleStart)
      }
    }
    return String(line).withoutTrailingSpaces
  }

  // MARK: - Glyphs

  struct Glyphs {
    var horizontal: Character
    var vertical: Character
    var upFromLeft: Character
    var rightFromBelow: Character
    var downFromLeft: Character
    var rightFromAbove: Character
    var axis: Character
    var tick: Character
    var cursor: Character { vertical }

    static let unicode = Glyphs(
      horizontal: "─", vertical: "│", upFromLeft: "╯", rightFromBelow: "╭",
      downFromLeft: "╮", rightFromAbove: "╰", axis: "│", tick: "┤")
    static let ascii = Glyphs(
      horizontal: "-", vertical: "|", upFromLeft: "*", rightFromBelow: "*",
      downFromLeft: "*", rightFromAbove: "*", axis: "|", tick: "+")
  }
}

extension Series where Key: ViewKey {
  /// Every day or hour of the series as a point to draw on its UTC day, oldest first: a gap
  /// (a key without a rate) is a point with a `nan` rate, a blank column.
  var chartPoints: [RatePoint] {
    days.map { RatePoint(date: $0.day.chartDay, rate: $0.point?.rate ?? .nan, carried: $0.point?.carried ?? false) }
  }
}
