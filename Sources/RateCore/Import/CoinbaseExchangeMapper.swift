/// Coinbase Exchange (Pro): `fills.csv`, one row per fill, and `account.csv`, one row per leg.
enum CoinbaseExchangeMapper {
  /// A fill: BUY +size base for price × size quote (`total` is signed and includes the fee);
  /// SELL mirrored; the fee, in the quote, its own leg.
  static func fills(_ table: ImportTable) -> [RowOutcome] {
    table.rows.map { row in
      table.outcome(row) { row throws(RowError) in
        let day = try table.day(row, "created at")
        let size = try table.unsigned(row, "size")
        let fee = try table.unsigned(row, "fee")
        let total = try table.amount(row, "total").magnitude
        let product = table.field(row, "product").split(separator: "-").map(String.init)
        guard product.count == 2 else {
          throw RowError(reason: "the product \(ExchangeImport.shown(table.field(row, "product"))) is not BASE-QUOTE")
        }
        let base = ImportLeg(asset: try table.asset(product[0]), amount: size)
        let side = table.field(row, "side").lowercased()
        let quoteAmount = side == "buy" ? total - fee : total + fee
        guard quoteAmount.decimal > 0 else { throw RowError(reason: "the total is not positive") }
        let quote = ImportLeg(asset: try table.asset(product[1]), amount: quoteAmount)
        let tradeID = table.field(row, "trade id")
        var event = ImportedEvent(
          line: row.line, day: day, id: "\(table.field(row, "product")):\(tradeID)", kind: .feesOnly,
          label: "\(side) \(product.joined(separator: "-"))")
        event.kind = try .trade(side: side, column: "side", base: base, quote: quote)
        event.fees = [ImportLeg(asset: quote.asset, amount: fee)]
        return .event(event)
      }
    }
  }

  /// One parsed account row.
  struct AccountRow {
    var row: ImportTable.Row
    var type: String
    var day: Day
    var amount: ImportAmount
    var unit: CurrencyCode
    var tradeID: String
  }

  /// Deposits and withdrawals one row each (id the transfer id); `match` and `fee` rows
  /// grouped by trade id into a trade, which needs both its legs in the file.
  static func account(_ table: ImportTable) -> [RowOutcome] {
    var outcomes: [RowOutcome] = []
    var grouped: [AccountRow] = []
    let timeColumn = table.columns["time"] != nil ? "time" : "timestamp"
    for row in table.rows {
      outcomes.append(
        table.outcome(row) { row throws(RowError) in
          let parsed = AccountRow(
            row: row, type: table.field(row, "type").lowercased(), day: try table.day(row, timeColumn),
            amount: try table.amount(row, "amount"),
            unit: try table.asset(table.field(row, "amount/balance unit")),
            tradeID: table.field(row, "trade id"))
          switch parsed.type {
          case "match", "fee":
            guard !parsed.tradeID.isEmpty else { throw RowError(reason: "a \(parsed.type) row without a trade id") }
            grouped.append(parsed)
            return .grouped
          case "deposit", "withdrawal":
            let leg = ImportLeg(asset: parsed.unit, amount: parsed.amount.magnitude)
            let transferID = table.field(row, "transfer id")
            return .event(
              ImportedEvent(
                line: row.line, day: parsed.day,
                id: transferID.isEmpty ? ImportDigest.of(row.fields) : transferID,
                kind: parsed.type == "deposit" ? .deposit(leg, income: false) : .withdrawal(leg),
                label: "Coinbase Exchange \(parsed.type)"))
          default:
            throw RowError(reason: "the type \(ExchangeImport.shown(parsed.type)) has no mapping")
          }
        })
    }
    outcomes += Dictionary(grouping: grouped, by: \.tradeID).values.sorted { $0[0].row.line < $1[0].row.line }
      .map(trade)
    return outcomes
  }

  static func trade(_ rows: [AccountRow]) -> RowOutcome {
    let first = rows[0]
    let matches = rows.filter { $0.type == "match" }
    let paid = matches.filter { $0.amount.decimal < 0 }
    let received = matches.filter { $0.amount.decimal > 0 }
    guard let out = paid.first, let into = received.first,
      paid.allSatisfy({ $0.unit == out.unit }), received.allSatisfy({ $0.unit == into.unit })
    else {
      return .unmappable(
        first.row.line,
        "trade \(first.tradeID) has only its \(first.unit) leg here (import the other currency's "
          + "account file with it, or the fills file)")
    }
    func sum(_ rows: [AccountRow]) -> ImportAmount {
      rows.dropFirst().reduce(rows[0].amount.magnitude) { $0 + $1.amount.magnitude }
    }
    var event = ImportedEvent(
      line: first.row.line, day: first.day, id: "trade:\(first.tradeID)",
      kind: .trade(
        paid: ImportLeg(asset: out.unit, amount: sum(paid)),
        received: ImportLeg(asset: into.unit, amount: sum(received))),
      label: "Coinbase Exchange match")
    event.fees = rows.filter { $0.type == "fee" }.map {
      ImportLeg(asset: $0.unit, amount: $0.amount.magnitude)
    }
    return .event(event)
  }
}
