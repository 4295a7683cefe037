import RateCore

/// `rates portfolio` as a table: one row per holding, the totals, the money put in and taken
/// out, and where each price came from.
struct PortfolioView {
  let report: PortfolioReport
  /// The layout the output layer hands over: width, style, ASCII.
  let layout: TextLayout

  func lines() -> [String] {
    let code = report.currency.text
    guard !report.holdings.isEmpty else {
      return [
        "Nothing held on \(report.asOf): record what you hold with 'rates ledger add 0.5 BTC "
          + "--deposit' or an exchange with 'rates ledger add'."
      ]
    }
    let method = PortfolioCommand.title(of: report.method)
    var lines = ["Portfolio in \(code) on \(report.asOf) (gains by \(method))", ""]
    lines += layout.render(table())
    lines.append("")
    lines.append(
      "Money put in \(RateFormat.money(report.moneyIn, code: code)), taken out "
        + "\(RateFormat.money(report.moneyOut, code: code))" + putIn())
    lines += sources()
    return lines
  }

  private func table() -> TextTable {
    let style = layout.style
    let code = report.currency.text
    // A narrow window keeps the value and both gains longest (80 columns show them with the
    // quantity and cost); share, 24h and price go first, and the note under the table names them.
    var table = TextTable(columns: [
      .init("Asset", priority: TextTable.required), .init("Quantity", alignment: .right, priority: 4),
      .init("Price", alignment: .right, priority: 3),
      .init("Value", alignment: .right, priority: TextTable.required),
      .init("24h", alignment: .right, priority: 2), .init("Share", alignment: .right, priority: 1),
      .init("Cost", alignment: .right, priority: 5), .init("Unrealized", alignment: .right, priority: 7),
      .init("Realized", alignment: .right, priority: 6),
    ])
    // Every figure as JSON and CSV round it, the totals the sums of the rows as shown.
    func gain(_ value: Double) -> String { style.change(RateFormat.signedMoney(value, code: code), value: value) }
    let shares = Self.tenthsOfShares(report.holdings.map { report.share(of: $0) })
    for (holding, share) in zip(report.holdings, shares) {
      let (held, figures) = (holding.price != nil, report.written(holding))
      table.append([
        TerminalText.sanitize(holding.code),
        held ? RateFormat.money(holding.quantity, code: holding.code.text) : "closed",
        holding.price.map { RateFormat.rate($0.rate) + ($0.source == .ledger ? " street" : "") } ?? "",
        RateFormat.money(figures.value, code: code), figures.change.map(gain) ?? "",
        held ? RateFormat.fixed(Double(share) / 10, decimals: 1) + "%" : "",
        held ? RateFormat.money(figures.cost, code: code) : "", held ? gain(figures.unrealized) : "",
        gain(figures.realized),
      ])
    }
    let totals = report.writtenTotals
    table.append([
      "Total", "", "", RateFormat.money(totals.value, code: code), gain(totals.change),
      RateFormat.fixed(Double(shares.reduce(0, +)) / 10, decimals: 1) + "%",
      RateFormat.money(totals.cost, code: code), gain(totals.unrealized), gain(totals.realized),
    ])
    return table
  }

  /// `shares` (0…1) in tenths of a percent that add up to 1,000 when the shares add up to 1
  /// (largest remainders: each share rounded down, the tenths left over given to the shares
  /// that lost most), so the Share column adds up to its 100.0 %.
  static func tenthsOfShares(_ shares: [Double]) -> [Int] {
    let exact = shares.map { $0.isFinite ? Swift.max(0, $0 * 1_000) : 0 }
    var tenths = exact.map { Int($0.rounded(.down)) }
    let whole = Int(exact.reduce(0, +).rounded())
    let byRemainder = exact.indices.sorted { exact[$0] - Double(tenths[$0]) > exact[$1] - Double(tenths[$1]) }
    for index in byRemainder.prefix(Swift.max(0, whole - tenths.reduce(0, +))) { tenths[index] += 1 }
    return tenths
  }

  /// `; paid beyond holdings: 20,000.00 USD, 8,950,000 LBP`.
  private func putIn() -> String {
    let paid = report.holdings.filter { $0.putIn > 0 }.sorted { $0.code < $1.code }
      .map { RateFormat.money($0.putIn, code: TerminalText.sanitize($0.code)) }
    return paid.isEmpty ? "" : " (paid from outside: " + paid.joined(separator: ", ") + ")"
  }

  /// `Prices: BTC CoinGecko 2026-11-26; EUR ECB snapshot 2015-05-29; …`, dimmed.
  private func sources() -> [String] {
    let held = report.holdings.compactMap { holding in holding.price.map { (holding.code, $0) } }
      .filter { $0.0 != report.currency }
    guard !held.isEmpty else { return [] }
    let parts = held.map { code, price in
      let when = price.detail == nil ? " " + price.date.description : ""
      return "\(TerminalText.sanitize(code)) \(price.detail ?? price.source?.displayName ?? "")\(when)"
    }
    var lines = [layout.style.dim("Prices: " + parts.joined(separator: "; "))]
    lines.append(
      layout.style.dim(
        "Cost: each acquisition at its own day's price; gains by \(report.method.rawValue)."))
    return lines
  }
}
