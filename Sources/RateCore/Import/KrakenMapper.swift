/// Kraken's `trades.csv` (one row per trade) and `ledgers.csv` (one row per leg).
enum KrakenMapper {
  // MARK: - trades.csv

  /// BUY: +vol base, −cost quote; SELL mirrored; the fee (in the quote) its own leg. A margin
  /// trade is refused: its cost was not all paid.
  static func trades(_ table: ImportTable) -> [RowOutcome] {
    table.rows.map { row in table.outcome(row) { row throws(RowError) in try trade(row, table) } }
  }

  static func trade(_ row: ImportTable.Row, _ table: ImportTable) throws(RowError) -> RowOutcome {
    let pairText = table.field(row, "pair")
    guard let (base, quote) = AssetSymbols.splitKrakenPair(pairText),
      AssetSymbols.symbol(base) != nil, AssetSymbols.symbol(quote) != nil
    else { throw RowError(reason: "cannot split the pair \(ExchangeImport.shown(pairText))") }
    let day = try table.day(row, "time")
    let volume = try table.unsigned(row, "vol")
    let cost = try table.unsigned(row, "cost")
    let fee = try table.unsigned(row, "fee")
    let margin = try table.optionalAmount(row, "margin")
    guard margin.isZero else {
      throw RowError(reason: "a margin trade (margin \(margin.text)) is not a spot trade")
    }
    guard !volume.isZero, !cost.isZero else { throw RowError(reason: "the volume or cost is zero") }
    let side = table.field(row, "type").lowercased()
    let baseLeg = ImportLeg(asset: try table.asset(base), amount: volume)
    let quoteLeg = ImportLeg(asset: try table.asset(quote), amount: cost)
    let kind = try ImportedEvent.Kind.trade(side: side, column: "type", base: baseLeg, quote: quoteLeg)
    let txid = table.field(row, "txid")
    var event = ImportedEvent(
      line: row.line, day: day, id: txid.isEmpty ? ImportDigest.of(row.fields) : txid, kind: kind,
      label: "\(side) \(pairText)")
    event.fees = [ImportLeg(asset: quoteLeg.asset, amount: fee)]
    return .event(event)
  }

  // MARK: - ledgers.csv

  /// One parsed ledger row.
  struct LedgerRow {
    var row: ImportTable.Row
    var txid: String
    var refid: String
    var type: String
    var asset: CurrencyCode
    var suffixed: Bool
    var amount: ImportAmount
    var fee: ImportAmount
    var day: Day
  }

  static let ownMoveTypes: Set<String> = ["transfer", "earn"]

  /// Trades (`trade`, `spend`/`receive`) are the rows sharing a refid; deposits, withdrawals and
  /// staking are one row each; rows without a txid are pending copies and are left out.
  static func ledgers(_ table: ImportTable) -> [RowOutcome] {
    var outcomes: [RowOutcome] = []
    var parsed: [LedgerRow] = []
    for row in table.rows {
      let outcome = table.outcome(row) { row throws(RowError) in
        parsed.append(try ledgerRow(row, table))
        return .grouped
      }
      if case .unmappable = outcome { outcomes.append(outcome) }
    }
    let booked = parsed.filter { !$0.txid.isEmpty }
    let bookedRefs = Set(booked.map(\.refid))
    let staked = Set(booked.filter { $0.type == "staking" }.map { "\($0.asset) \($0.amount.text)" })
    for pending in parsed where pending.txid.isEmpty {
      if bookedRefs.contains(pending.refid) || staked.contains("\(pending.asset) \(pending.amount.text)")
        || pending.suffixed
      {
        outcomes.append(.skipped(pending.row.line, "pending copy of a booked row"))
      } else {
        outcomes.append(.unmappable(pending.row.line, "a pending \(pending.type) never booked (no txid)"))
      }
    }
    let trades = booked.filter { ["trade", "spend", "receive"].contains($0.type) }
    outcomes += Dictionary(grouping: trades, by: \.refid).values.sorted { $0[0].row.line < $1[0].row.line }
      .map(tradeGroup)
    for row in booked where !["trade", "spend", "receive"].contains(row.type) {
      outcomes.append(single(row))
    }
    return outcomes
  }

  static func ledgerRow(_ row: ImportTable.Row, _ table: ImportTable) throws(RowError) -> LedgerRow {
    let code = table.field(row, "asset")
    let balance = table.field(row, "balance")
    if !balance.isEmpty, ImportAmount.read(balance) == nil {
      throw RowError(reason: "the balance \(ExchangeImport.shown(balance)) is not a number")
    }
    return LedgerRow(
      row: row, txid: table.field(row, "txid"), refid: table.field(row, "refid"),
      type: table.field(row, "type").lowercased(), asset: try table.asset(AssetSymbols.kraken(code)),
      suffixed: code.contains("."), amount: try table.amount(row, "amount"),
      fee: try table.optionalAmount(row, "fee").magnitude, day: try table.day(row, "time"))
  }

  /// A trade: exactly one asset out and one in (each row's fee a fee leg in its asset).
  static func tradeGroup(_ rows: [LedgerRow]) -> RowOutcome {
    let first = rows[0]
    let paid = rows.filter { $0.amount.decimal < 0 }
    let received = rows.filter { $0.amount.decimal > 0 }
    guard paid.count == 1, received.count == 1, rows.count == 2, paid[0].asset != received[0].asset
    else {
      return .unmappable(
        first.row.line,
        "trade \(first.refid) has \(rows.count) leg\(rows.count == 1 ? "" : "s"), not one out and one in")
    }
    var event = ImportedEvent(
      line: first.row.line, day: first.day, id: first.refid,
      kind: .trade(
        paid: ImportLeg(asset: paid[0].asset, amount: paid[0].amount.magnitude),
        received: ImportLeg(asset: received[0].asset, amount: received[0].amount)),
      label: "Kraken \(first.type)")
    event.fees = rows.filter { !$0.fee.isZero }.map { ImportLeg(asset: $0.asset, amount: $0.fee) }
    return .event(event)
  }

  /// A deposit, withdrawal, staking reward, or a move between own accounts.
  static func single(_ row: LedgerRow) -> RowOutcome {
    if ownMoveTypes.contains(row.type) { return .ownMove }
    let leg = ImportLeg(asset: row.asset, amount: row.amount.magnitude)
    let kind: ImportedEvent.Kind
    switch (row.type, row.amount.decimal > 0) {
    case ("deposit", true): kind = .deposit(leg, income: false)
    case ("withdrawal", false): kind = .withdrawal(leg)
    case ("staking", true), ("dividend", true), ("reward", true): kind = .deposit(leg, income: true)
    default:
      return .unmappable(
        row.row.line, "a \(ExchangeImport.shown(row.type)) row of \(row.amount.text) \(row.asset) has no mapping")
    }
    var event = ImportedEvent(
      line: row.row.line, day: row.day, id: row.txid, kind: kind, label: "Kraken \(row.type)")
    event.fees = [ImportLeg(asset: row.asset, amount: row.fee)]
    return .event(event)
  }
}
