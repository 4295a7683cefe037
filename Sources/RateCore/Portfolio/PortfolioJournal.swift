/// The ledger as a plain-text accounting journal (hledger, ledger-cli, beancount): every entry
/// as a transaction with its cost, the money paid from outside as its own transaction, and a
/// price directive in the portfolio's currency for every code on every day from the first
/// entry to the last day asked, so that the tools' market value on any of those days equals
/// `rates portfolio --as-of` that day.
///
/// Accounts: `Assets:Rates:<CODE>` for holdings, `Equity:Deposits`, `Equity:Withdrawals` and
/// `Equity:PaidFromOutside` for money in and out. An exchange's received amount carries the
/// paid amount as its total price (`@@`), a deposit with a cost its cost.
public struct PortfolioJournal: Sendable {
  /// The entries, in any order.
  public var entries: [LedgerEntry]
  /// The prices to write: per code, per day.
  public var prices: [CurrencyCode: [Day: PortfolioPrice]]
  /// The portfolio's currency, the quote of every price.
  public var currency: CurrencyCode
  /// The syntax.
  public var journal: PriceExport.Journal

  /// Creates a journal.
  public init(
    entries: [LedgerEntry], prices: [CurrencyCode: [Day: PortfolioPrice]], currency: CurrencyCode,
    journal: PriceExport.Journal
  ) {
    self.entries = entries
    self.prices = prices
    self.currency = currency
    self.journal = journal
  }

  /// The codes and days whose prices the journal writes: every code of the ledger but the
  /// portfolio's currency, on every day from the first entry to `through`.
  public static func pricesNeeded(_ entries: [LedgerEntry], currency: CurrencyCode, through: Day)
    -> [CurrencyCode: Set<Day>]
  {
    guard let first = entries.map(\.date).min(), first <= through else { return [:] }
    let days = Set(first...through)
    var codes = Set(entries.map(\.currency))
    codes.formUnion(entries.filter { $0.transfer == nil }.map(\.counterCurrency))
    codes.remove(currency)
    return Dictionary(uniqueKeysWithValues: codes.map { ($0, days) })
  }

  /// The whole journal text, ending in a newline.
  public func text() throws -> String {
    let ordered = entries.oldestFirst()
    let putIns = try PortfolioReport.putIns(ordered)
    var lines: [String] = []
    if journal == .beancount, let first = ordered.first?.date {
      lines.append("option \"operating_currency\" \"\(currency)\"")
      // A total price (`@@`) becomes a unit price with a rounding residue: tolerate it.
      lines.append("option \"inferred_tolerance_default\" \"*:0.000001\"")
      let accounts =
        Set(ordered.flatMap { [$0.currency, $0.counterCurrency] }.filter { !$0.text.isEmpty })
        .map { "Assets:Rates:\($0)" } + ["Equity:Deposits", "Equity:Withdrawals", "Equity:PaidFromOutside"]
      lines += accounts.sorted().map { "\(first) open \($0)" }
    }
    for entry in ordered {
      lines.append("")
      lines += transaction(entry, putIn: putIns[entry.id])
    }
    lines.append("")
    lines += directives()
    return lines.joined(separator: "\n") + "\n"
  }

  private func amount(_ value: Double, _ code: CurrencyCode) -> String {
    (DecimalText.shortest(value) ?? "0") + " " + code.text
  }

  private func header(_ day: Day, _ title: String) -> String {
    journal == .beancount ? "\(day) * \"\(title)\"" : "\(day) * \(title)"
  }

  private func posting(_ account: String, _ text: String = "") -> String {
    text.isEmpty ? "    \(account)" : "    \(account)  \(text)"
  }

  private func transaction(_ entry: LedgerEntry, putIn: Double?) -> [String] {
    let asset = { (code: CurrencyCode) in "Assets:Rates:\(code)" }
    switch entry.transfer {
    case .deposit?:
      let cost = entry.cost.map { " @@ " + amount($0.amount, $0.currency) } ?? ""
      return [
        header(entry.date, "deposit #\(entry.id)"),
        posting(asset(entry.currency), amount(entry.amount, entry.currency) + cost),
        posting("Equity:Deposits"),
      ]
    case .withdrawal?:
      return paidFromOutside(entry, code: entry.currency, putIn: putIn) + [
        header(entry.date, "withdrawal #\(entry.id)"),
        posting(asset(entry.currency), amount(-entry.amount, entry.currency)),
        posting("Equity:Withdrawals"),
      ]
    case nil:
      let selling = entry.side == .sell
      let paid = selling ? (entry.currency, entry.amount) : (entry.counterCurrency, entry.counterAmount)
      let got = selling ? (entry.counterCurrency, entry.counterAmount) : (entry.currency, entry.amount)
      return paidFromOutside(entry, code: paid.0, putIn: putIn) + [
        header(entry.date, "exchange #\(entry.id)"),
        posting(asset(got.0), amount(got.1, got.0) + " @@ " + amount(paid.1, paid.0)),
        posting(asset(paid.0), amount(-paid.1, paid.0)),
      ]
    }
  }

  /// The transaction that brings in what `entry` paid beyond the holding, before it.
  private func paidFromOutside(_ entry: LedgerEntry, code: CurrencyCode, putIn: Double?) -> [String] {
    guard let putIn else { return [] }
    return [
      header(entry.date, "paid from outside for #\(entry.id)"),
      posting("Assets:Rates:\(code)", amount(putIn, code)), posting("Equity:PaidFromOutside"), "",
    ]
  }

  /// One directive per code and day with a price, oldest first.
  private func directives() -> [String] {
    var lines: [(Day, CurrencyCode, String)] = []
    for (code, byDay) in prices where code != currency {
      for (day, price) in byDay {
        guard
          let line = PriceExport.directive(
            day: day, base: .code(code), rate: price.rate, quote: .code(currency), journal: journal)
        else { continue }
        lines.append((day, code, line))
      }
    }
    return lines.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
  }
}
