/// Binance's statement ("Transaction History", B1/B2/B8): one signed leg per row, no ids.
///
/// Trade legs share their time to the second and their account and nothing else, so the legs
/// of one (time, account) are summed per coin into one entry: one coin out and one in is a
/// trade (fee rows are fee legs in their coin); anything else is unmappable. `Change`'s sign,
/// not the operation's name, gives the direction.
enum BinanceStatementMapper {
  /// Operations, compared lower case without spaces.
  static let tradeOperations: Set<String> = [
    "buy", "sell", "fee", "transactionrelated", "transactionbuy", "transactionspend",
    "transactionfee", "transactionrevenue", "transactionsold", "binanceconvert",
    "smallassetsexchangebnb", "largeotctrading", "buycryptowithfiat",
  ]
  static let feeOperations: Set<String> = ["fee", "transactionfee"]
  static let incomeOperations: Set<String> = [
    "eth2.0stakingrewards", "launchpoolinterest", "possavingsinterest",
    "simpleearnlockedrewards", "simpleearnflexibleinterest", "bnbvaultrewards",
    "cashvoucherdistribution", "missionrewarddistribution", "commissionhistory",
    "savingsinterest", "superbnbmining", "cashbackvoucher", "distribution",
    "referralcommission", "stakingrewards", "airdropassets", "referralkickback",
    "commissionrebate", "simpleearnflexibleairdrop",
  ]
  static let depositOperations: Set<String> = ["deposit", "fiatdeposit", "buycrypto"]
  static let withdrawalOperations: Set<String> = ["withdraw", "fiatwithdraw", "fiatwithdrawal"]
  static let ownMoveOperations: Set<String> = [
    "transferbetweenmainandfundingwallet", "transferbetweenspotaccountandumfuturesaccount",
    "transferbetweenspotaccountandcmfuturesaccount", "simpleearnflexiblesubscription",
    "simpleearnflexibleredemption", "simpleearnlockedsubscription", "simpleearnlockedredemption",
    "stakingpurchase", "stakingredemption", "possavingspurchase", "possavingsredemption",
    "savingspurchase", "savingsprincipalredemption", "eth2.0staking", "transferfundtospot",
    "transferspottofund", "maintofunding", "fundingtomain",
  ]

  struct Leg {
    var row: ImportTable.Row
    var operation: String
    var coin: CurrencyCode
    var change: ImportAmount
    var day: Day
    var time: String
    var account: String
  }

  static func key(_ text: String) -> String {
    text.lowercased().filter { !$0.isWhitespace && $0 != "-" && $0 != "_" }
  }

  static func map(_ table: ImportTable) -> [RowOutcome] {
    var outcomes: [RowOutcome] = []
    var grouped: [Leg] = []
    let timeColumn = table.columns["utc_time"] != nil ? "utc_time" : "time"
    for row in table.rows {
      if row.fields.count == 1, row.fields[0].lowercased().hasPrefix("no data") { continue }
      outcomes.append(
        table.outcome(row) { row throws(RowError) in
          let leg = Leg(
            row: row, operation: key(table.field(row, "operation")),
            coin: try table.asset(table.field(row, "coin")), change: try table.amount(row, "change"),
            day: try table.day(row, timeColumn), time: table.field(row, timeColumn),
            account: key(table.field(row, "account")))
          if ownMoveOperations.contains(leg.operation) { return .ownMove }
          if leg.account.contains("futures") || leg.account.contains("margin") {
            throw RowError(reason: "a \(table.field(row, "account")) row is not a spot holding")
          }
          if tradeOperations.contains(leg.operation) {
            grouped.append(leg)
            return .grouped
          }
          return try single(leg, table.field(row, "operation"))
        })
    }
    outcomes += Dictionary(grouping: grouped) { $0.time + "|" + $0.account }.values
      .sorted { $0[0].row.line < $1[0].row.line }.map(trade)
    return outcomes
  }

  static func single(_ leg: Leg, _ operation: String) throws(RowError) -> RowOutcome {
    let amount = ImportLeg(asset: leg.coin, amount: leg.change.magnitude)
    let id = ImportDigest.of(leg.row.fields.filter { !$0.isEmpty })
    var event = ImportedEvent(line: leg.row.line, day: leg.day, id: id, kind: .feesOnly, label: operation)
    let positive = leg.change.decimal > 0
    if incomeOperations.contains(leg.operation), positive {
      event.kind = .deposit(amount, income: true)
    } else if depositOperations.contains(leg.operation), positive {
      event.kind = .deposit(amount, income: false)
    } else if withdrawalOperations.contains(leg.operation), !positive {
      event.kind = .withdrawal(amount)
    } else {
      throw RowError(
        reason: "the operation \(ExchangeImport.shown(operation)) with change \(leg.change.text) "
          + "has no mapping")
    }
    return .event(event)
  }

  /// One (time, account) group of trade legs.
  static func trade(_ legs: [Leg]) -> RowOutcome {
    let first = legs[0]
    var totals: [CurrencyCode: Decimal] = [:]
    var fees: [CurrencyCode: Decimal] = [:]
    var coins: [CurrencyCode] = []
    for leg in legs {
      if !coins.contains(leg.coin) { coins.append(leg.coin) }
      if feeOperations.contains(leg.operation) {
        fees[leg.coin, default: 0] += leg.change.decimal
      } else {
        totals[leg.coin, default: 0] += leg.change.decimal
      }
    }
    let out = coins.filter { (totals[$0] ?? 0) < 0 }
    let into = coins.filter { (totals[$0] ?? 0) > 0 }
    guard out.count == 1, into.count == 1 else {
      return .unmappable(
        first.row.line,
        "the \(legs.count) legs at \(first.time) move \(out.count) coin\(out.count == 1 ? "" : "s") out "
          + "and \(into.count) in: not one trade")
    }
    func leg(_ coin: CurrencyCode, _ value: Decimal) -> ImportLeg {
      let magnitude = value < 0 ? -value : value
      return ImportLeg(asset: coin, amount: ImportAmount(text: magnitude.description, decimal: magnitude))
    }
    var event = ImportedEvent(
      line: first.row.line, day: first.day,
      id: ImportDigest.of(legs.flatMap { $0.row.fields.filter { !$0.isEmpty } }),
      kind: .trade(paid: leg(out[0], totals[out[0]] ?? 0), received: leg(into[0], totals[into[0]] ?? 0)),
      label: "Binance trade")
    event.fees = coins.compactMap { coin in fees[coin].map { leg(coin, $0) } }
    return .event(event)
  }
}
