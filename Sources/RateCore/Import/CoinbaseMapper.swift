/// Coinbase's retail "Transactions" report, every layout from 2020 on: one row per event.
///
/// Buy: the asset for the subtotal in the price currency, the fee its own leg (Total = Subtotal
/// + Fees). Sell: mirrored (Total = Subtotal − Fees). Convert: the asset for the coin the Notes
/// name (`Converted 0.5 ETH to 12.3 ATOM`); its fee is a spread inside the two quantities, so no
/// fee leg. Send/Receive and fiat Deposit/Withdrawal move one asset; rewards are income; moves
/// between Coinbase's own staking accounts add nothing.
enum CoinbaseMapper {
  static let incomeTypes: Set<String> = [
    "coinbase earn", "learning reward", "rewards income", "reward income", "staking income",
    "inflation reward", "interest", "staking reward", "incentives rewards payout",
  ]
  static let ownMoveTypes: Set<String> = [
    "retail staking transfer", "retail unstaking transfer", "retail eth2 deprecation",
    "pro deposit", "pro withdrawal", "exchange deposit", "exchange withdrawal",
  ]
  static let buyTypes: Set<String> = ["buy", "advanced trade buy", "advance trade buy"]
  static let sellTypes: Set<String> = ["sell", "advanced trade sell", "advance trade sell"]

  static func map(_ table: ImportTable) -> [RowOutcome] {
    table.rows.map { row in table.outcome(row) { row throws(RowError) in try event(row, table) } }
  }

  static func event(_ row: ImportTable.Row, _ table: ImportTable) throws(RowError) -> RowOutcome {
    let type = table.field(row, "transaction type")
    let kind = type.lowercased().split(separator: " ").joined(separator: " ")
    if ownMoveTypes.contains(kind) { return .ownMove }
    let day = try table.day(row, "timestamp")
    let asset = try table.asset(table.field(row, "asset"))
    let quantity = try table.amount(row, "quantity transacted")
    let id =
      table.columns["id"] != nil && !table.field(row, "id").isEmpty
      ? table.field(row, "id") : ImportDigest.of(row.fields)
    var event = ImportedEvent(line: row.line, day: day, id: id, kind: .feesOnly, label: type)
    let held = ImportLeg(asset: asset, amount: quantity.magnitude)
    if buyTypes.contains(kind) || sellTypes.contains(kind) {
      guard quantity.decimal > 0 else { throw RowError(reason: "the quantity \(quantity.text) is not positive") }
      let (money, fee) = try priced(row, table)
      guard money.asset != asset else {
        throw RowError(reason: "a \(type) of \(asset) for \(money.asset) moves nothing")
      }
      event.kind =
        buyTypes.contains(kind)
        ? .trade(paid: money, received: held) : .trade(paid: held, received: money)
      event.fees = [fee]
    } else if kind == "convert" {
      let received = try converted(table.field(row, "notes"))
      guard received.asset != asset else { return .ownMove }
      event.kind = .trade(paid: held, received: received)
    } else if kind == "send" || kind == "withdrawal" {
      event.kind = .withdrawal(held)
      if kind == "withdrawal" { event.fees = [try fee(row, table)] }
    } else if kind == "receive" || kind == "deposit" {
      event.kind = .deposit(held, income: false)
      if kind == "deposit" { event.fees = [try fee(row, table)] }
    } else if incomeTypes.contains(kind) {
      event.kind = .deposit(held, income: true)
    } else {
      throw RowError(reason: "unknown transaction type \(ExchangeImport.shown(type))")
    }
    return .event(event)
  }

  /// The price currency of the row (from the header in the 2020–21 layout).
  static func currency(_ row: ImportTable.Row, _ table: ImportTable) throws(RowError) -> CurrencyCode {
    if let header = table.headerCurrency { return header }
    let named = table.field(row, "spot price currency")
    return try table.asset(named.isEmpty ? table.field(row, "price currency") : named)
  }

  static func feeColumn(_ table: ImportTable) -> String {
    table.columns["fees"] != nil ? "fees" : "fees and/or spread"
  }

  static func totalColumn(_ table: ImportTable) -> String {
    table.columns["total (inclusive of fees)"] != nil
      ? "total (inclusive of fees)" : "total (inclusive of fees and/or spread)"
  }

  /// The fee leg in the price currency (zero when the cell is empty).
  static func fee(_ row: ImportTable.Row, _ table: ImportTable) throws(RowError) -> ImportLeg {
    let amount = try table.optionalAmount(row, feeColumn(table))
    guard amount.decimal >= 0 else { throw RowError(reason: "the fee \(amount.text) is negative") }
    return ImportLeg(asset: try currency(row, table), amount: amount)
  }

  /// The subtotal (or total less fees when the subtotal is empty) and the fee.
  static func priced(_ row: ImportTable.Row, _ table: ImportTable) throws(RowError)
    -> (ImportLeg, ImportLeg)
  {
    let fee = try fee(row, table)
    let subtotal =
      table.field(row, "subtotal").isEmpty
      ? try table.unsigned(row, totalColumn(table)) - fee.amount
      : try table.unsigned(row, "subtotal")
    guard subtotal.decimal > 0 else { throw RowError(reason: "the subtotal is not positive") }
    return (ImportLeg(asset: fee.asset, amount: subtotal), fee)
  }

  /// The coin a Convert row received, named only in its Notes: `Converted 0,001 BTC to
  /// 318,3483088 XLM` (a European user's file writes decimal commas there).
  static func converted(_ notes: String) throws(RowError) -> ImportLeg {
    let halves = notes.components(separatedBy: " to ")
    let words = halves.last?.split(separator: " ").map(String.init) ?? []
    guard halves.count == 2, words.count >= 2, notes.lowercased().hasPrefix("converted") else {
      throw RowError(
        reason: "a Convert row whose Notes do not name what was received: \(ExchangeImport.shown(notes))")
    }
    let soldText = halves[0].split(separator: " ").dropFirst().first.map(String.init) ?? ""
    var text = words[0]
    let commaDecimal = soldText.contains(",") && !soldText.contains(".")
    if text.contains(","), !text.contains("."), commaDecimal || !ImportAmount.isThousandsGrouped(text) {
      text = text.replacing(",", with: ".")
    }
    guard let amount = ImportAmount.read(text), amount.decimal > 0,
      let asset = AssetSymbols.symbol(words[1])
    else {
      throw RowError(reason: "cannot read what the Convert received: \(ExchangeImport.shown(notes))")
    }
    return ImportLeg(asset: asset, amount: amount)
  }
}
