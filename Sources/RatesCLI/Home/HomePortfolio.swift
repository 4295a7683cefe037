import RateCore

/// What the home list's Portfolio section shows: the ledger's holdings valued now in the
/// list's currency (``PortfolioReport``), as `rates portfolio --in CUR` values them.
struct HomePortfolio: Equatable, Sendable {
  /// One holding: its code, value and share of the total (0…1).
  struct Holding: Equatable, Sendable {
    var code: String
    var value: Double
    var share: Double

  }

  /// The currency of the figures.
  var currency: String
  /// The total value.
  var value: Double
  /// The change of the total value since the day before.
  var change24h: Double
  /// Every holding, largest first.
  var holdings: [Holding]
}

extension HomePortfolio {
  /// The section's figures from `report`; nil when it holds nothing.
  init?(_ report: PortfolioReport) {
    let held = report.holdings.filter { $0.quantity > 0 && $0.value > 0 }
    guard !held.isEmpty else { return nil }
    // The totals `rates portfolio` shows: the sums of the rows as written.
    let totals = report.writtenTotals
    self.init(
      currency: report.currency.text, value: totals.value, change24h: totals.change,
      holdings: held.map {
        Holding(code: UntrustedText.sanitize($0.code.text), value: $0.value, share: report.share(of: $0))
      })
  }

  /// What the detail screen opens for the section (Enter on its heading): the value chart
  /// in ``currency``. No live rate: the chart's days are the stored daily values.
  var row: HomeRow {
    HomeRow(
      kind: .portfolio, id: "portfolio", symbol: "Portfolio", name: "Portfolio value",
      currency: currency, rate: nil, changePercent: changePercent, changePeriod: .hours24, week: [])
  }

  /// The day change in percent of the value the day before (a sum of what was held, never
  /// negative); nil when that was nothing.
  var changePercent: Double? {
    Change.exactPercent(of: change24h, from: value - change24h)
  }
}

// The Portfolio section's lines.
extension HomeRenderer {
  /// `Portfolio (3 holdings)` and `12,345.67 USD  ▲ +1.20% today  BTC 61%  ETH 27%  LBP 12%`:
  /// as many of the largest holdings as fit. Nothing when the ledger holds nothing.
  /// `selected`: the heading is marked as the selected row is, with `Enter value chart`.
  static func portfolioLines(_ portfolio: HomePortfolio?, selected: Bool, _ context: HomeRenderContext)
    -> [String]
  {
    guard let portfolio else { return [] }
    let count = portfolio.holdings.count
    var heading = context.style.bold("Portfolio (\(count) holding\(count == 1 ? "" : "s"))")
    if selected {
      heading += "  " + context.style.dim("Enter value chart")
      heading =
        context.style.enabled
        ? context.style.reverse(TerminalText.pad(heading, toWidth: context.width))
        : "> " + heading
    }
    var line = "   " + RateFormat.number(portfolio.value) + " " + TerminalText.sanitize(portfolio.currency)
    if let change = portfolio.changePercent, change.isFinite {
      line += "  " + context.style.change(RateFormat.percent(change), value: change) + " today"
    }
    for holding in portfolio.holdings {
      let part = "  \(holding.code) \(Int((holding.share * 100).rounded()))%"
      guard TerminalText.displayWidth(TableLayout.withoutEscapes(line + part)) <= context.width else { break }
      line += part
    }
    return [heading, line]
  }
}

// Loading it.
extension LiveHomeDriver {
  /// The ledger's portfolio in `currency` at today's prices, or nil when the ledger holds
  /// nothing; a failure (a currency no source prices, offline) is a status line, and the
  /// section is left out.
  func portfolio(currency: String) async -> (HomePortfolio?, (any Error)?) {
    do {
      let entries = try userData.ledger.read().entries
      guard !entries.isEmpty else { return (nil, nil) }
      let report = try await PortfolioCommand.Show.report(
        entries: entries, asOf: Day(containing: desk.now()), currency: CurrencyCode(currency), method: .fifo,
        desk: desk(.normal))
      return (HomePortfolio(report), nil)
    } catch {
      return (nil, error)
    }
  }
}
