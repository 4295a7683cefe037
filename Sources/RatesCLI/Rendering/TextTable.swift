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
struct TextTable: Sendable, Equatable {
  /// How a column's cells sit within its width.
  enum Alignment: Sendable, Equatable {
    /// Text starts at the left edge.
    case left
    /// Text ends at the right edge, for numbers; number cells line up on their decimal point.
    case right
  }

  /// What narrowing may do to a column's cells.
  enum Fit: Sendable, Equatable {
    /// Shown in full or not at all: numbers, symbols, codes, dates, ids.
    case whole
    /// May be shortened with `…` (names, notes, free text), down to ``TextTable/minimumShrunkWidth``.
    case shrinks
    /// May be shortened with `…` down to `keeping` columns before any column drops, and
    /// further, down to ``TextTable/minimumShrunkWidth``, only when it would drop next.
    case shortens(keeping: Int)

    /// The narrowest the column becomes before any other column drops.
    var kept: Int? {
      switch self {
      case .whole: return nil
      case .shrinks: return TextTable.minimumShrunkWidth
      case .shortens(let keeping): return Swift.max(keeping, TextTable.minimumShrunkWidth)
      }
    }
  }

  /// A column's title, alignment, and how it gives way when the table is too wide.
  struct Column: Sendable, Equatable {
    /// The header text.
    var title: String
    /// The alignment of the title and the cells.
    var alignment: Alignment
    /// Whether the cells may be shortened.
    var fit: Fit
    /// Columns are dropped lowest priority first (the rightmost of equals first) when
    /// shortening names is not enough; ``TextTable/required`` columns are never dropped.
    var priority: Int

    /// Creates a column: left-aligned, whole, priority 0 unless told otherwise.
    init(
      _ title: String, alignment: Alignment = .left, fit: Fit = .whole, priority: Int = 0
    ) {
      self.title = title
      self.alignment = alignment
      self.fit = fit
      self.priority = priority
    }
  }

  /// The priority of a column that is never dropped.
  static let required = Int.max
  /// The narrowest a ``Fit/shrinks`` column becomes before columns are dropped.
  static let minimumShrunkWidth = 6

  /// The columns, left to right.
  var columns: [Column]
  /// The rows; a short row is padded with empty cells, extra cells are ignored.
  var rows: [[String]] = []
  /// Whether ``render(maxWidth:ascii:)`` writes the titles as a first line.
  var showsHeader = true

  /// The gap between columns.
  static let separator = "  "

  /// Adds a row.
  mutating func append(_ row: [String]) {
    rows.append(row)
  }

  /// Renders the table as lines without trailing spaces, each at most `maxWidth` columns.
  ///
  /// The fitting rule, in order, until the table fits:
  /// 1. columns that may be shortened are, with `…` (`...` when `ascii`), widest first:
  ///    ``Fit/shrinks`` down to ``minimumShrunkWidth``, ``Fit/shortens(keeping:)`` down
  ///    to what it keeps;
  /// 2. the column with the lowest ``Column/priority`` (the rightmost of equals) is
  ///    dropped, and step 1 starts again with the room it leaves; a column that may be
  ///    shortened is first shortened down to ``minimumShrunkWidth`` when its turn comes;
  /// 3. when only ``required`` columns (or one column) are left and they still do not
  ///    fit, every line is cut at `maxWidth` as a last resort.
  /// ``Fit/whole`` cells are never shortened. Right-aligned cells that hold a number
  /// line up on their decimal point (a whole number where its point would be).
  func render(maxWidth: Int, ascii: Bool) -> [String] {
    renderNotingHidden(maxWidth: maxWidth, ascii: ascii).lines
  }

  /// ``render(maxWidth:ascii:)``, and the titles of the columns it left out, left to right
  /// (a title two columns share after the title of the column before it: `GBP 24H`).
  func renderNotingHidden(maxWidth: Int, ascii: Bool) -> (lines: [String], hidden: [String]) {
    guard !columns.isEmpty else { return ([], []) }
    var lines: [[String]] = rows.map { row in
      columns.indices.map { index in
        let cell = index < row.count ? row[index] : ""
        // A missing value's dash is the one non-ASCII glyph cells share: `-` with --ascii.
        return ascii && cell.contains("—") ? cell.replacing("—", with: "-") : cell
      }
    }
    if showsHeader { lines.insert(columns.map(\.title), at: 0) }
    let layout = TableLayout(columns: columns, lines: lines, headerRows: showsHeader ? 1 : 0)
    var visible = Array(columns.indices)
    var shortest: Set<Int> = []
    var widths = layout.fitted(visible, maxWidth: maxWidth, shortest: shortest)
    while widths == nil, let next = layout.nextToDrop(visible) {
      if columns[next].fit != .whole, !shortest.contains(next) {
        shortest.insert(next)  // at its narrowest before it goes
      } else {
        visible.removeAll { $0 == next }
      }
      widths = layout.fitted(visible, maxWidth: maxWidth, shortest: shortest)
    }
    let shown = widths ?? layout.shrunk(visible)
    let hidden = columns.indices.filter { !visible.contains($0) }.map(hiddenName)
    return (rendered(lines, layout: layout, visible: visible, widths: shown, maxWidth: maxWidth, ascii: ascii), hidden)
  }

  /// How the note under the table names column `index`: its title, after the title of the
  /// column before it when another column has the same title (`GBP 24H`).
  private func hiddenName(_ index: Int) -> String {
    let title = columns[index].title
    let shared = columns.filter { $0.title == title }.count > 1
    return shared && index > 0 ? columns[index - 1].title + " " + title : title
  }

  /// The lines under a table that left columns out for width, naming them, in lines of at
  /// most `width` columns: `Not shown at this width: Price, 24h`; none when nothing was
  /// left out.
  static func hiddenNote(_ hidden: [String], width: Int) -> [String] {
    guard !hidden.isEmpty else { return [] }
    let text = "Not shown at this width: " + hidden.joined(separator: ", ")
    return CommandHelp.wrap(text, width: width)
  }

  private func rendered(
    _ lines: [[String]], layout: TableLayout, visible: [Int], widths shown: [Int], maxWidth: Int, ascii: Bool
  ) -> [String] {
    lines.indices.map { row in
      var line = ""
      for (position, index) in visible.enumerated() {
        if position > 0 { line += TextTable.separator }
        line += layout.cell(row: row, column: index, width: shown[position], ascii: ascii)
      }
      line = line.withoutTrailingSpaces
      if TerminalText.displayWidth(line) > maxWidth {
        line = TerminalText.truncate(line, toWidth: Swift.max(maxWidth, 0), ascii: ascii)
      }
      return line
    }
  }
}

/// The measurements behind ``TextTable/render(maxWidth:ascii:)``.
struct TableLayout {
  let columns: [TextTable.Column]
  let lines: [[String]]
  let headerRows: Int
  /// Per column: the widest whole part and the widest decimal part of its number cells.
  let decimals: [(whole: Int, fraction: Int)]
  /// Per column: the natural width.
  let natural: [Int]

  init(columns: [TextTable.Column], lines: [[String]], headerRows: Int) {
    self.columns = columns
    self.lines = lines
    self.headerRows = headerRows
    var decimals: [(whole: Int, fraction: Int)] = []
    var natural: [Int] = []
    for index in columns.indices {
      var whole = 0
      var fraction = 0
      var plain = 0
      for (row, cells) in lines.enumerated() {
        let width = TerminalText.displayWidth(cells[index])
        if columns[index].alignment == .right, row >= headerRows,
          let tail = TableLayout.fractionWidth(cells[index])
        {
          fraction = Swift.max(fraction, tail)
          whole = Swift.max(whole, width - tail)
        } else {
          plain = Swift.max(plain, width)
        }
      }
      decimals.append((whole, fraction))
      natural.append(Swift.max(plain, whole + fraction))
    }
    self.decimals = decimals
    self.natural = natural
  }

  /// The width of a number cell from its decimal point to its end (0 for a whole number),
  /// or nil when the cell holds no digit before a point (a title, `—`, words).
  static func fractionWidth(_ cell: String) -> Int? {
    let characters = Array(withoutEscapes(cell))
    guard let first = characters.firstIndex(where: \.isASCIIDigit) else { return nil }
    var end = first
    while end < characters.count, characters[end].isASCIIDigit || characters[end] == "," {
      end += 1
    }
    if end < characters.count, characters[end] == "." {
      return TerminalText.displayWidth(String(characters[end...]))
    }
    var index = end
    while index < characters.count, !characters[index].isASCIIDigit { index += 1 }
    guard index == characters.count else { return nil }  // more digits later: not one number
    return TerminalText.displayWidth(String(characters[end...]))
  }

  /// `text` without its SGR escape sequences (`ESC [ … m`), whose digits are no number.
  static func withoutEscapes(_ text: String) -> String {
    guard text.utf8.contains(0x1B) else { return text }
    return String(decoding: escapeFreeBytes(text), as: UTF8.self)
  }

  /// The bytes of `text` without its escape sequences: each from ESC through the ASCII letter
  /// that ends it.
  static func escapeFreeBytes(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var inEscape = false
    for byte in text.utf8 {
      if byte == 0x1B {
        inEscape = true
      } else if inEscape {
        if (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") { inEscape = false }
      } else {
        bytes.append(byte)
      }
    }
    return bytes
  }

  /// The widths of `visible` columns with names shortened so that they fit, or nil: each
  /// down to what it keeps, those in `shortest` down to their narrowest.
  func fitted(_ visible: [Int], maxWidth: Int, shortest: Set<Int> = []) -> [Int]? {
    var widths = visible.map { natural[$0] }
    let gaps = TextTable.separator.count * Swift.max(visible.count - 1, 0)
    func excess() -> Int { widths.reduce(0, +) + gaps - maxWidth }
    func floor(_ position: Int) -> Int {
      let column = visible[position]
      let kept = shortest.contains(column) ? TextTable.minimumShrunkWidth : columns[column].fit.kept
      return Swift.min(natural[column], kept ?? natural[column])
    }
    while excess() > 0 {
      let candidates = visible.indices.filter { widths[$0] > floor($0) }
      guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { return nil }
      widths[widest] = Swift.max(widths[widest] - excess(), floor(widest))
    }
    return widths
  }

  /// The `visible` columns' widths with every name at its narrowest.
  func shrunk(_ visible: [Int]) -> [Int] {
    visible.map { columns[$0].fit == .whole ? natural[$0] : Swift.min(natural[$0], TextTable.minimumShrunkWidth) }
  }

  /// The column to drop next: the lowest priority, the rightmost of equals; nil when
  /// only required columns (or a single column) remain.
  func nextToDrop(_ visible: [Int]) -> Int? {
    guard visible.count > 1 else { return nil }
    let droppable = visible.filter { columns[$0].priority != TextTable.required }
    return droppable.min { left, right in
      columns[left].priority != columns[right].priority
        ? columns[left].priority < columns[right].priority : left > right
    }
  }

  /// One cell, cut (if it may be) and padded to `width`, numbers on their decimal point.
  func cell(row: Int, column: Int, width: Int, ascii: Bool) -> String {
    let text = lines[row][column]
    guard columns[column].alignment == .right else {
      let cut =
        columns[column].fit != .whole
        ? TerminalText.truncate(text, toWidth: width, ascii: ascii) : text
      return TerminalText.pad(cut, toWidth: width)
    }
    var aligned = text
    if row >= headerRows, let tail = TableLayout.fractionWidth(text) {
      aligned += String(repeating: " ", count: decimals[column].fraction - tail)
    }
    return TerminalText.pad(aligned, toWidth: width, leading: true)
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
