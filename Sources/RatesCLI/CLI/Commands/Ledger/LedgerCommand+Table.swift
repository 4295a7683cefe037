import RateCore

/// `rates ledger list` as a table, written page by page as the ledger is read from its end.
extension LedgerCommand {
  /// Rows per page: the first page is on screen after reading only the newest entries.
  static let listPageSize = 1000

  static func listTable(_ filter: ListFilter, _ invocation: Invocation) throws -> ExitCode {
    let store = invocation.userData().ledger
    let window = filter.days.map { LedgerMath.window(days: $0, endingOn: today(invocation)) }
    var shown = 0
    var widths: [Int] = []
    var units = Set<String>()
    var transfers = 0
    try store.forEachPageNewestFirst(since: window?.lowerBound, pageSize: Self.listPageSize) {
      page in
      let entries = page.filter { filter.matches($0, window: window) }
      let rows = entries.map { row($0, filter) }
      guard !rows.isEmpty else { return true }
      let exchanges = entries.filter { $0.transfer == nil }
      transfers += entries.count - exchanges.count
      if units.count < 2 { units.formUnion(exchanges.map { "\($0.counterCurrency) per \($0.currency)" }) }
      invocation.out(renderPage(rows, first: shown == 0, widths: &widths, invocation))
      shown += rows.count
      // A reader that went away (`| head`) ends the reading too.
      return !invocation.context.output.outputClosed
    }
    guard shown > 0 else {
      let total = try store.read().entries.count
      invocation.out(
        total == 0
          ? "No exchanges recorded yet. Record one with "
            + "'rates ledger add 100 USD 8950000 LBP --sell'."
          : "No exchanges match (\(total) in the ledger).")
      return .success
    }
    // Deposits and withdrawals are entries, not exchanges, and have no rate.
    let noun = transfers == 0 ? ("exchange", "exchanges") : ("entry", "entries")
    let count = shown == 1 ? "1 \(noun.0)" : "\(shown) \(noun.1)"
    // Named whenever it is one unit: a narrow table drops FOR and AMOUNT before RATE.
    let unit =
      transfers == shown
      ? nil
      : filter.pair.map { "RATE is \($0.quote) per \($0.base)" }
        ?? (units.count == 1 ? units.first.map { "RATE is \(TerminalText.sanitize($0))" } : nil)
        ?? "RATE is the FOR currency per unit of the AMOUNT currency"
    invocation.out(invocation.style.dim("\(count), newest first" + (unit.map { "; \($0)" } ?? "")))
    return .success
  }

  static let listColumns: [TextTable.Column] = [
    // Narrowing shortens WITH and NOTE, then drops NOTE, WITH, SIDE, FOR, AMOUNT and RATE
    // in that order; ID and DATE always stay.
    .init("ID", alignment: .right, priority: TextTable.required),
    .init("DATE", alignment: .right, priority: TextTable.required),
    .init("SIDE", alignment: .right, priority: 3),
    .init("AMOUNT", alignment: .right, priority: 5), .init("FOR", alignment: .right, priority: 4),
    .init("RATE", alignment: .right, priority: 6), .init("WITH", fit: .shrinks, priority: 2),
    .init("NOTE", fit: .shrinks, priority: 1),
  ]

  /// One entry's cells.
  static func row(_ entry: LedgerEntry, _ filter: ListFilter) -> [String] {
    let (base, quote) = filter.pair ?? (entry.currency, entry.counterCurrency)
    return [
      String(entry.id), entry.date.description,
      entry.transfer?.rawValue ?? entry.side.rawValue, Self.amount(entry.amount, entry.currency),
      entry.transfer == nil
        ? Self.amount(entry.counterAmount, entry.counterCurrency)
        : entry.cost.map { "cost " + Self.amount($0.amount, $0.currency) } ?? "—",
      entry.rate(base: base, quote: quote).map(RateFormat.rate) ?? "—",
      entry.counterparty ?? "—", entry.note ?? "",
    ]
  }

  /// A page of the table; the header on the first. Right-aligned columns are padded to the
  /// widest cell of any page so far, so numbers stay aligned from one page to the next (one
  /// page, up to ``listPageSize`` rows, renders exactly as a single table).
  static func renderPage(
    _ rows: [[String]], first: Bool, widths: inout [Int], _ invocation: Invocation
  ) -> String {
    let columns = Self.listColumns
    if widths.isEmpty { widths = columns.map { TerminalText.displayWidth($0.title) } }
    for row in rows {
      for (index, cell) in row.enumerated() where columns[index].alignment == .right {
        widths[index] = Swift.max(widths[index], TerminalText.displayWidth(cell))
      }
    }
    var table = TextTable(columns: columns, showsHeader: first)
    for row in rows {
      table.append(
        row.enumerated().map { index, cell in
          columns[index].alignment == .right
            ? TerminalText.pad(cell, toWidth: widths[index], leading: true) : cell
        })
    }
    let lines = table.render(
      maxWidth: invocation.terminal.width, ascii: !invocation.terminal.unicode)
    let styled = first ? lines.prefix(1).map(invocation.style.bold) + lines.dropFirst() : lines
    return styled.joined(separator: "\n")
  }
}

extension LedgerCommand.ListFilter {
  /// Whether `list` shows `entry`: in `window`, of the pair, with the counterparty asked for.
  func matches(_ entry: LedgerEntry, window: ClosedRange<Day>?) -> Bool {
    if let window, !window.contains(entry.date) { return false }
    if let pair, entry.oriented(base: pair.base, quote: pair.quote) == nil { return false }
    switch counterparty {
    case .all: return true
    case .anyone: return entry.counterparty != nil
    case .named(let name): return entry.counterparty?.lowercased() == name.lowercased()
    }
  }
}
