/// Binance's one-row-per-event histories: trades (units glued to numbers), crypto deposits and
/// withdrawals, fiat deposits and withdrawals, card purchases.
enum BinanceMapper {
  static func each(
    _ table: ImportTable, _ body: (ImportTable.Row) throws(RowError) -> RowOutcome
  ) -> [RowOutcome] {
    table.rows.filter { !($0.fields.count == 1 && $0.fields[0].lowercased().hasPrefix("no data")) }
      .map { row in table.outcome(row, body) }
  }

  static func timeColumn(_ table: ImportTable) -> String {
    table.columns["date(utc)"] != nil ? "date(utc)" : "time"
  }

  /// `Executed` `0.18SOL`, `Amount` `19.8054BUSD`, `Fee` `0.0198054BUSD`: the units name the
  /// pair's halves. BUY: +Executed, −Amount; SELL mirrored; the fee a leg in its unit.
  static func trades(_ table: ImportTable) -> [RowOutcome] {
    each(table) { row throws(RowError) in
      let day = try table.day(row, timeColumn(table))
      let (executed, base) = try glued(row, "executed", table)
      let (amount, quote) = try glued(row, "amount", table)
      let (fee, feeCoin) = try glued(row, "fee", table)
      let baseLeg = ImportLeg(asset: try table.asset(base), amount: executed)
      let quoteLeg = ImportLeg(asset: try table.asset(quote), amount: amount)
      let side = table.field(row, "side").lowercased()
      var event = ImportedEvent(
        line: row.line, day: day, id: ImportDigest.of(row.fields), kind: .feesOnly,
        label: "\(side) \(table.field(row, "pair"))")
      event.kind = try .trade(side: side, column: "side", base: baseLeg, quote: quoteLeg)
      event.fees = [ImportLeg(asset: try table.asset(feeCoin), amount: fee)]
      return .event(event)
    }
  }

  static func glued(_ row: ImportTable.Row, _ column: String, _ table: ImportTable)
    throws(RowError) -> (ImportAmount, String)
  {
    let text = table.field(row, column)
    guard let (amount, unit) = ImportAmount.readUnit(text) else {
      throw RowError(reason: "the \(column) \(ExchangeImport.shown(text)) is not a number with its coin")
    }
    guard amount.decimal >= 0 else { throw RowError(reason: "the \(column) \(amount.text) is negative") }
    return (amount, unit)
  }

  /// Completed deposits: +Amount of Coin, id the TXID.
  static func deposits(_ table: ImportTable) -> [RowOutcome] {
    each(table) { row throws(RowError) in
      try transfer(row, table, withdrawal: false)
    }
  }

  /// Completed withdrawals: −Amount of Coin, the fee a leg in the same coin.
  static func withdrawals(_ table: ImportTable) -> [RowOutcome] {
    each(table) { row throws(RowError) in
      try transfer(row, table, withdrawal: true)
    }
  }

  static func transfer(_ row: ImportTable.Row, _ table: ImportTable, withdrawal: Bool)
    throws(RowError) -> RowOutcome
  {
    let status = table.field(row, "status")
    guard status.lowercased() == "completed" else {
      return .skipped(row.line, "status \(ExchangeImport.shown(status)), not Completed")
    }
    let day = try table.day(row, "time")
    let leg = ImportLeg(
      asset: try table.asset(table.field(row, "coin")), amount: try table.unsigned(row, "amount"))
    let txid = table.field(row, "txid")
    var event = ImportedEvent(
      line: row.line, day: day, id: txid.isEmpty ? ImportDigest.of(row.fields) : txid,
      kind: withdrawal ? .withdrawal(leg) : .deposit(leg, income: false),
      label: withdrawal ? "Binance withdrawal" : "Binance deposit")
    if withdrawal {
      event.fees = [ImportLeg(asset: leg.asset, amount: try table.unsigned(row, "fee"))]
    }
    return .event(event)
  }

  /// Fiat history: `Successful` rows only; in both files Indicated Amount = Amount + Fee, so
  /// only the downloaded file's name tells a deposit (`…deposit…`: +Indicated, fee leg) from a
  /// withdrawal (`…withdraw…`: −Amount, fee leg).
  static func fiat(_ table: ImportTable) -> [RowOutcome] {
    let name = table.fileName.lowercased()
    let isWithdrawal = name.contains("withdraw")
    let named = isWithdrawal != name.contains("deposit")
    return each(table) { row throws(RowError) in
      let status = table.field(row, "status")
      guard status.lowercased() == "successful" else {
        return .skipped(row.line, "status \(ExchangeImport.shown(status)), not Successful")
      }
      guard named else {
        throw RowError(
          reason: "the file's name must say 'deposit' or 'withdraw': the rows read the same")
      }
      let day = try table.day(row, "date(utc)")
      let coin = try table.asset(table.field(row, "coin"))
      let amount = try table.unsigned(row, "amount")
      let indicated = try table.unsigned(row, "indicated amount")
      let fee = try table.unsigned(row, "fee")
      let orderID = table.field(row, "order id")
      var event = ImportedEvent(
        line: row.line, day: day, id: orderID.isEmpty ? ImportDigest.of(row.fields) : orderID,
        kind: isWithdrawal
          ? .withdrawal(ImportLeg(asset: coin, amount: amount))
          : .deposit(ImportLeg(asset: coin, amount: indicated), income: false),
        label: isWithdrawal ? "Binance fiat withdrawal" : "Binance fiat deposit")
      event.fees = [ImportLeg(asset: coin, amount: fee)]
      return .event(event)
    }
  }

  /// Card purchases: `500.00 CAD` paid, `Final Amount` received (after the fee), `Fees` a leg.
  static func card(_ table: ImportTable) -> [RowOutcome] {
    each(table) { row throws(RowError) in
      let status = table.field(row, "status")
      guard ["completed", "successful"].contains(status.lowercased()) else {
        return .skipped(row.line, "status \(ExchangeImport.shown(status)), not Completed")
      }
      let day = try table.day(row, "date(utc)")
      let (spent, fiat) = try spaced(row, "amount", table)
      let (fee, feeCoin) = try spaced(row, "fees", table)
      let (received, coin) = try spaced(row, "final amount", table)
      let id = table.field(row, "transaction id")
      var event = ImportedEvent(
        line: row.line, day: day, id: id.isEmpty ? ImportDigest.of(row.fields) : id,
        kind: .trade(
          paid: ImportLeg(asset: try table.asset(fiat), amount: spent - fee),
          received: ImportLeg(asset: try table.asset(coin), amount: received)),
        label: "Binance card purchase")
      event.fees = [ImportLeg(asset: try table.asset(feeCoin), amount: fee)]
      return .event(event)
    }
  }

  /// `500.00 CAD` → (500.00, CAD).
  static func spaced(_ row: ImportTable.Row, _ column: String, _ table: ImportTable)
    throws(RowError) -> (ImportAmount, String)
  {
    let words = table.field(row, column).split(separator: " ").map(String.init)
    guard words.count == 2, let amount = ImportAmount.read(words[0]), amount.decimal >= 0 else {
      throw RowError(
        reason: "the \(column) \(ExchangeImport.shown(table.field(row, column))) is not an amount and its currency")
    }
    return (amount, words[1])
  }
}
