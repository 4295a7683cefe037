import RateCore

/// `rates portfolio gains` as text: the disposals, the totals per asset, the income, and the
/// rules they were computed by, laid out for the layout it is given.
struct GainsView: Sendable {
  let report: GainsReport
  /// The ledger's notes, for the income rows (`Staking Income`).
  let notes: [Int: String]

  init(report: GainsReport, entries: [LedgerEntry]) {
    self.report = report
    let wanted = Set(report.income.map(\.entryID))
    notes = Dictionary(
      entries.lazy.filter { wanted.contains($0.id) }.map { ($0.id, $0.note ?? "") }, uniquingKeysWith: { $1 })
  }

  func lines(_ layout: TextLayout) -> [String] {
    let code = report.currency
    let span = "\(report.period.lowerBound) to \(report.period.upperBound)"
    var lines = ["Gains in \(code), \(span) (\(PortfolioCommand.title(of: report.method)))", ""]
    guard !report.rows.isEmpty || !report.income.isEmpty else {
      return [
        "No disposals and no income from \(span).",
        "Record exchanges with 'rates ledger add' or 'rates ledger import', or pick another",
        "period with --year or --from.",
      ]
    }
    let rows = report.writtenRows  // rounded once, for the rows and the totals
    if rows.isEmpty {
      lines.append("No disposals.")
    } else {
      lines += layout.render(disposals(rows, layout.style))
    }
    if Set(rows.map(\.row.code)).count > 1 {
      lines += ["", "By asset", ""] + layout.render(byAsset(rows, layout.style))
    }
    if !report.income.isEmpty {
      lines += ["", "Income (acquired at its value on receipt; not in the gains)", ""]
      lines += layout.render(income())
    }
    lines.append("")
    lines.append(layout.style.dim("Short: held a year or less; long: more. Cost by \(report.method.rawValue)."))
    lines.append(layout.style.dim("Fees: a purchase paid in \(report.currency) adds its fee to the cost;"))
    lines.append(layout.style.dim("any other trade's comes off its proceeds (the Fee column)."))
    return lines
  }

  /// An amount without its code (the title names the currency, the Asset column the coin).
  private static func amount(_ value: Double, code: CurrencyCode) -> String {
    RateFormat.fixed(value, decimals: Figure.moneyDecimals(value, code: code))
  }

  private func money(_ value: Double) -> String { Self.amount(value, code: report.currency) }

  private func gain(_ value: Double, _ style: Style) -> String {
    style.change(RateFormat.signedMoney(value, code: report.currency.text), value: value)
  }

  /// `2025-03-01` for one lot, `2024-01-02…2024-06-01` for several (`...` in ASCII).
  static func acquired(_ lots: [PortfolioLot]) -> String {
    guard let first = lots.first?.acquired, let last = lots.last?.acquired else { return "" }
    return first == last ? first.description : "\(first)…\(last)"
  }

  private func disposals(_ rows: [GainsReport.WrittenRow], _ style: Style) -> TextTable {
    let totals = report.totals(rows)
    // The Fee column only when a fee came off some proceeds.
    let fees = totals.fee != 0
    var table = TextTable(
      columns: [
        .init("Date", priority: TextTable.required), .init("Asset", priority: TextTable.required),
        .init("Quantity", alignment: .right, priority: 4), .init("Proceeds", alignment: .right, priority: 7),
        .init("Cost", alignment: .right, priority: 6), .init("Gain", alignment: .right, priority: TextTable.required),
        .init("Term", priority: 5), .init("Acquired", priority: 3),
      ] + (fees ? [.init("Fee", alignment: .right, priority: 2)] : []))
    for (row, figures) in rows.map({ ($0.row, $0.figures) }) {
      table.append(
        [
          row.date.description, TerminalText.sanitize(row.code) + (row.kind == .fee ? " fee" : ""),
          Self.amount(figures.quantity, code: row.code), money(figures.proceeds), money(figures.cost),
          gain(figures.gain, style), row.period.rawValue, Self.acquired(row.lots),
        ] + (fees ? [figures.fee == 0 ? "" : money(figures.fee)] : []))
    }
    table.append(
      ["Total", "", "", money(totals.proceeds), money(totals.cost), gain(totals.gain, style), "", ""]
        + (fees ? [money(totals.fee)] : []))
    return table
  }

  private func byAsset(_ rows: [GainsReport.WrittenRow], _ style: Style) -> TextTable {
    var table = TextTable(columns: [
      .init("Asset", priority: TextTable.required), .init("Proceeds", alignment: .right, priority: 3),
      .init("Cost", alignment: .right, priority: 2), .init("Gain", alignment: .right, priority: TextTable.required),
      .init("Short", alignment: .right, priority: 5), .init("Long", alignment: .right, priority: 4),
    ])
    for (code, totals) in report.totalsByCode(rows) {
      table.append([
        TerminalText.sanitize(code), money(totals.proceeds), money(totals.cost), gain(totals.gain, style),
        gain(totals.shortGain, style), gain(totals.longGain, style),
      ])
    }
    let totals = report.totals(rows)
    table.append([
      "Total", money(totals.proceeds), money(totals.cost), gain(totals.gain, style),
      gain(totals.shortGain, style), gain(totals.longGain, style),
    ])
    return table
  }

  private func income() -> TextTable {
    var table = TextTable(columns: [
      .init("Date", priority: TextTable.required), .init("Asset", priority: TextTable.required),
      .init("Quantity", alignment: .right, priority: 2),
      .init("Value", alignment: .right, priority: TextTable.required),
      .init("Note", fit: .shrinks, priority: 1),
    ])
    for income in report.income {
      table.append([
        income.date.description, TerminalText.sanitize(income.code),
        Self.amount(income.quantity, code: income.code), money(report.writtenValue(income)),
        TerminalText.sanitize(notes[income.entryID] ?? ""),
      ])
    }
    table.append(["Total", "", "", money(report.incomeTotal), ""])
    return table
  }
}
