import RateCore
/// A plain-text table with aligned columns, fitted to a width.
///
/// Cells are measured with ``TerminalText/displayWidth(_:)``, so wide
/// characters and SGR colour codes line up. Cells are printed as given:
/// pass untrusted text through ``TerminalText/sanitize(_:)`` first.
///
/// ```swift
/// var table = TextTable(columns: [.init("Pair"), .init("Rate", alignment: .right)])
/// table.append(["BTC/EUR", "85,999.00"])
/// let lines = table.render(maxWidth: 80, ascii: false)
/// ```
public struct TextTable: Sendable, Equatable {
  /// How a column's cells sit within its width.
  public enum Alignment: Sendable, Equatable {
    /// Text starts at the left edge; the column may be truncated to fit.
    case left
    /// Text ends at the right edge, for numbers; never truncated.
    case right
  }

  /// A column's title and alignment.
  public struct Column: Sendable, Equatable {
    /// The header text.
    public var title: String
    /// The alignment of the title and the cells.
    public var alignment: Alignment

    /// Creates a column; left-aligned unless told otherwise.
    public init(_ title: String, alignment: Alignment = .left) {
      self.title = title
      self.alignment = alignment
    }
  }

  /// The columns, left to right.
  public var columns: [Column]
  /// The rows; a short row is padded with empty cells, extra cells are ignored.
  public var rows: [[String]]
  /// Whether ``render(maxWidth:ascii:)`` writes the titles as a first line.
  public var showsHeader: Bool

  /// The gap between columns.
  public static let separator = "  "

  /// Creates a table.
  public init(columns: [Column], rows: [[String]] = [], showsHeader: Bool = true) {
    self.columns = columns
    self.rows = rows
    self.showsHeader = showsHeader
  }

  /// Adds a row.
  public mutating func append(_ row: [String]) {
    rows.append(row)
  }

  /// Renders the table as lines without trailing spaces, each at most `maxWidth` columns.
  ///
  /// Columns are separated by two spaces. When the table is too wide, the
  /// widest left-aligned column is cut (with `…`, or `...` when `ascii`),
  /// repeatedly, down to a minimum of 3 columns each; if it still does not
  /// fit, every line is cut at `maxWidth` as a last resort.
  public func render(maxWidth: Int, ascii: Bool) -> [String] {
    guard !columns.isEmpty else { return [] }
    var lines: [[String]] = rows.map { row in
      columns.indices.map { $0 < row.count ? row[$0] : "" }
    }
    if showsHeader { lines.insert(columns.map(\.title), at: 0) }
    var widths = columns.indices.map { column in
      lines.map { TerminalText.displayWidth($0[column]) }.max() ?? 0
    }
    let gaps = TextTable.separator.count * (columns.count - 1)
    let minimum = 3
    while widths.reduce(0, +) + gaps > maxWidth {
      let candidates = columns.indices.filter {
        columns[$0].alignment == .left && widths[$0] > minimum
      }
      guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { break }
      let excess = widths.reduce(0, +) + gaps - maxWidth
      widths[widest] = Swift.max(widths[widest] - excess, minimum)
    }
    return lines.map { cells in
      var line = ""
      for (index, column) in columns.enumerated() {
        if index > 0 { line += TextTable.separator }
        let cell = TerminalText.truncate(cells[index], toWidth: widths[index], ascii: ascii)
        line += TerminalText.pad(cell, toWidth: widths[index], leading: column.alignment == .right)
      }
      while line.hasSuffix(" ") { line.removeLast() }
      if TerminalText.displayWidth(line) > maxWidth {
        line = TerminalText.truncate(line, toWidth: Swift.max(maxWidth, 0), ascii: ascii)
      }
      return line
    }
  }
}
