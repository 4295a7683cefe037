import RateCore

/// What marks the rows of a market table: the selected row, the rows whose price just
/// changed, the starred coins, the sort, and the rows in view (only they get sparklines).
struct HomeRowMarks {
  var selected: Int
  var changed: Set<String>
  var starred: Set<String>
  var sort: HomeSort?
  var inView: Range<Int>?
}

// The market table: the rows of the home list and the favorites under one header row.
extension HomeRenderer {
  /// A column of the market table: its title, the sort it stands for, its alignment and
  /// its place in the drop order (lowest first; nil: never).
  struct MarketColumn {
    var title: String
    var sort: HomeSort.Column?
    var alignment: TextTable.Alignment
    var drops: Int?
  }

  /// The columns, left to right, and the one order in which a narrow window gives them up,
  /// each step only while the table is still too wide:
  /// 1. every column with nothing in it (every cell blank or `—`: no market figures yet);
  /// 2. the name is shortened with `…`, down to ``nameKeeps`` columns;
  /// 3. `drops`, lowest first: the 7-day sparkline, volume, 1h, market cap, 7d, rank;
  /// 4. the name is shortened further, down to ``TextTable/minimumShrunkWidth``, then dropped;
  /// 5. the column the list is sorted by (with its `▲`/`▼`) goes last of all, after every
  ///    other droppable column, whatever its place above.
  /// The symbol, the price and the 24h change always stay, whole.
  static let marketColumns: [MarketColumn] = [
    MarketColumn(title: "#", sort: .rank, alignment: .right, drops: 5),
    MarketColumn(title: "Coin", sort: .symbol, alignment: .left, drops: nil),
    MarketColumn(title: "Name", sort: .name, alignment: .left, drops: 6),
    MarketColumn(title: "Price", sort: .price, alignment: .right, drops: nil),
    MarketColumn(title: "1h", sort: .change1h, alignment: .right, drops: 2),
    MarketColumn(title: "24h", sort: .change24h, alignment: .right, drops: nil),
    MarketColumn(title: "7d", sort: .change7d, alignment: .right, drops: 4),
    MarketColumn(title: "Market cap", sort: .marketCap, alignment: .right, drops: 3),
    MarketColumn(title: "Volume", sort: .volume, alignment: .right, drops: 1),
    MarketColumn(title: "7 days", sort: nil, alignment: .left, drops: 0),
  ]

  /// The index of the name in ``marketColumns``.
  static let nameColumn = 2
  /// The width a long name is shortened to before any column drops.
  static let nameKeeps = 16

  /// The width of the marks before each row: selection (or price change), star, a space.
  static let rowPrefixWidth = 3

  /// The header row and one line per row, the columns that fit `context.width`.
  static func marketTable(
    _ rows: [HomeRow], _ marks: HomeRowMarks, _ context: HomeRenderContext
  ) -> (header: String, lines: [String]) {
    let width = context.width - rowPrefixWidth
    let sorted = marketColumns.firstIndex { $0.sort != nil && $0.sort == marks.sort?.column }
    let titles = marketColumns.indices.map { index in
      marketColumns[index].title + (index == sorted ? sortMark(marks.sort, context) ?? "" : "")
    }
    let cells = rows.enumerated().map { index, row in
      var cells = marketCells(row, sparkline: marks.inView.map { $0.contains(index) } ?? true, context)
      if marks.changed.contains(row.id), context.style.enabled, row.rate != nil {
        let bold = context.style.bold(cells[3])
        cells[3] = index == marks.selected ? bold : context.style.reverse(bold)
      }
      return cells
    }
    let visible = withoutBlankColumns(titles: titles, cells: cells, width: width, keeping: sorted)
    let columns = visible.map { index in
      marketTableColumn(index, title: titles[index], sorted: index == sorted)
    }
    let table = TextTable(columns: columns, rows: cells.map { row in visible.map { row[$0] } })
    let lines = table.render(maxWidth: width, ascii: context.ascii)
    let header = String(repeating: " ", count: rowPrefixWidth) + (lines.first ?? "")
    let body = lines.dropFirst().enumerated().map { index, line in
      markedLine(line, row: rows[index], index: index, marks, context)
    }
    return (context.style.bold(header), body)
  }

  /// Column `index` of ``marketColumns`` as ``TextTable`` fits it: steps 2 to 5 of the
  /// drop order as fits and priorities.
  static func marketTableColumn(_ index: Int, title: String, sorted: Bool) -> TextTable.Column {
    let column = marketColumns[index]
    let last = (marketColumns.compactMap(\.drops).max() ?? 0) + 1
    let priority = column.drops.map { sorted ? last : $0 } ?? TextTable.required
    return TextTable.Column(
      title, alignment: column.alignment,
      fit: index == nameColumn ? .shortens(keeping: nameKeeps) : .whole, priority: priority)
  }

  /// `▼` (descending) or `▲` after the sorted column's title; `v` or `^` in ASCII.
  static func sortMark(_ sort: HomeSort?, _ context: HomeRenderContext) -> String? {
    guard let sort else { return nil }
    return sort.descending ? (context.ascii ? "v" : "▼") : (context.ascii ? "^" : "▲")
  }

  /// Step 1 of the drop order: the columns (indices into ``marketColumns``), less every one
  /// with nothing in them when not all fit at their natural widths (numbers on their
  /// decimal point, as ``TextTable`` lays them out). The column at `keeping` (the sorted
  /// one) stays.
  static func withoutBlankColumns(titles: [String], cells: [[String]], width: Int, keeping: Int?) -> [Int] {
    let columns = zip(marketColumns, titles).map { column, title in
      TextTable.Column(title, alignment: column.alignment)
    }
    let natural = TableLayout(columns: columns, lines: [titles] + cells, headerRows: 1).natural
    func fits(_ visible: [Int]) -> Bool {
      visible.reduce(0) { $0 + natural[$1] } + TextTable.separator.count * max(0, visible.count - 1) <= width
    }
    let all = Array(marketColumns.indices)
    guard !fits(all) else { return all }
    return all.filter { index in
      marketColumns[index].drops == nil || index == keeping || !cells.allSatisfy { isBlank($0[index]) }
    }
  }

  /// Whether a cell says nothing: empty, or the dash of an unknown figure.
  static func isBlank(_ cell: String) -> Bool {
    let text = TableLayout.withoutEscapes(cell).filter { $0 != " " }
    return text.isEmpty || text == "—" || text == "-"
  }

  /// A row's cells, one per column of ``marketColumns``; a pair has no market figures.
  static func marketCells(_ row: HomeRow, sparkline: Bool, _ context: HomeRenderContext) -> [String] {
    let market = row.market
    let sparkWidth = context.width >= 150 ? 24 : 12
    return [
      market.rank.map(String.init) ?? "",
      TerminalText.sanitize(row.symbol),
      nameCell(row),
      row.rate.map(RateFormat.rate) ?? none(context),
      row.kind == .pair ? "" : percentCell(market.change1h, context),
      changeCell(row, context),
      row.kind == .pair ? "" : percentCell(market.change7d, context),
      market.marketCap.map(RateFormat.compact) ?? (row.kind == .pair ? "" : none(context)),
      market.volume.map(RateFormat.compact) ?? (row.kind == .pair ? "" : none(context)),
      sparkline ? self.sparkline(row.week, width: sparkWidth, context) : "",
    ]
  }

  /// `+1.25%` in green, `-0.40%` in red, `—` when unknown.
  static func percentCell(_ value: Double?, _ context: HomeRenderContext) -> String {
    guard let value, value.isFinite else { return none(context) }
    return context.style.change(RateFormat.percent(value), value: value)
  }

  /// A row's line with its marks: `>` on the selected row without colour (reverse video
  /// with it), else `*` on a row whose price just changed without colour (the price
  /// highlighted with it); then `★` (`*` in ASCII) on a starred coin.
  static func markedLine(
    _ line: String, row: HomeRow, index: Int, _ marks: HomeRowMarks, _ context: HomeRenderContext
  ) -> String {
    let style = context.style
    let isSelected = index == marks.selected
    let isChanged = marks.changed.contains(row.id)
    let star = marks.starred.contains(row.id) && row.kind != .pair ? (context.ascii ? "*" : "★") : " "
    guard style.enabled else {
      return (isSelected ? ">" : isChanged ? "*" : " ") + star + " " + line
    }
    let marked = " " + star + " " + line
    return isSelected ? style.reverse(TerminalText.pad(marked, toWidth: context.width)) : marked
  }
}
