/// The export files `rates ledger import --from` reads: one case per exchange family, each with
/// the layouts (header lines) that exchange has written.
public enum ExchangeFormat: String, CaseIterable, Sendable {
  /// Coinbase's retail "Transactions" report (2020–21 `<CUR> Spot Price`, 2022–23
  /// `Spot Price Currency`, 2024+ `ID,…,Price Currency`), with or without its preamble.
  case coinbase
  /// Coinbase Exchange (Pro) `fills.csv` and `account.csv`.
  case coinbaseExchange = "coinbase-exchange"
  /// Kraken `trades.csv`.
  case kraken
  /// Kraken `ledgers.csv` (9, 10, 11 and 12 columns).
  case krakenLedgers = "kraken-ledgers"
  /// Binance statements, trade, deposit, withdrawal, fiat and card-purchase histories.
  case binance

  /// The prefix of its entries' import ids: one per exchange, so that the same trade read
  /// from Kraken's trades.csv and ledgers.csv (the ledger rows' refid is the trade's txid) is
  /// one entry, whichever file is imported first.
  public var importIDPrefix: String {
    switch self {
    case .kraken, .krakenLedgers: "kraken"
    default: rawValue
    }
  }

  /// The exchange's name in messages.
  public var title: String {
    switch self {
    case .coinbase: "Coinbase"
    case .coinbaseExchange: "Coinbase Exchange"
    case .kraken: "Kraken trades"
    case .krakenLedgers: "Kraken ledgers"
    case .binance: "Binance"
    }
  }
}

/// One header line an exchange has written, and how its rows are mapped.
public struct ExchangeLayout: Equatable, Sendable {
  /// The family `--from` names.
  public var format: ExchangeFormat
  /// A short name for messages, such as `Kraken ledgers (10 columns)`.
  public var name: String
  /// Which mapper reads the rows.
  let mapper: Mapper
  /// The header's column names, normalised (``ExchangeLayout/normalised(_:)``); a `*` stands
  /// for any three-letter currency code at that place (Coinbase 2020–21 writes `EUR Fees`).
  let columns: [String]
  /// Whether columns past the last named one are accepted (Kraken adds columns over time).
  var trailingColumns = false

  enum Mapper: Sendable {
    case coinbaseRetail, coinbaseFills, coinbaseAccount, krakenTrades, krakenLedgers
    case binanceStatement, binanceTrades, binanceDeposits, binanceWithdrawals, binanceFiat
    case binanceCard
  }

  /// A header name as compared: BOM and surrounding spaces dropped, lower case.
  static func normalised(_ name: String) -> String {
    name.drop { $0 == "\u{FEFF}" }.trimming(.whitespaces).lowercased()
  }

  /// The currency a Coinbase 2020–21 header names (`EUR` in `EUR Subtotal`), nil otherwise.
  func matches(_ header: [String]) -> (matched: Bool, currency: CurrencyCode?) {
    let names = header.map(Self.normalised)
    guard names.count == columns.count || (trailingColumns && names.count > columns.count) else {
      return (false, nil)
    }
    var currency: CurrencyCode?
    for (pattern, name) in zip(columns, names) {
      if pattern.hasPrefix("* ") {
        let code = name.prefix(3)
        guard name.count > 4, name.dropFirst(4) == pattern.dropFirst(2),
          code.allSatisfy({ $0.isASCII && $0.isLetter }), currency == nil || currency == CurrencyCode(code)
        else { return (false, nil) }
        currency = CurrencyCode(code)
      } else if pattern != name {
        return (false, nil)
      }
    }
    return (true, currency)
  }

  /// Every layout known, in the order they are tried.
  public static let all: [ExchangeLayout] = coinbase + kraken + binance

  static let coinbaseStart = ["timestamp", "transaction type", "asset", "quantity transacted"]
  static let coinbase: [ExchangeLayout] = [
    .init(
      format: .coinbase, name: "Coinbase transactions 2020-21 (currency in the header)",
      mapper: .coinbaseRetail,
      columns: coinbaseStart + [
        "* spot price at transaction", "* subtotal", "* total (inclusive of fees)", "* fees",
        "notes",
      ]),
    .init(
      format: .coinbase, name: "Coinbase transactions 2022 (Spot Price Currency)",
      mapper: .coinbaseRetail,
      columns: coinbaseStart + [
        "spot price currency", "spot price at transaction", "subtotal",
        "total (inclusive of fees)", "fees", "notes",
      ]),
    .init(
      format: .coinbase, name: "Coinbase transactions 2023 (Spot Price Currency, spread)",
      mapper: .coinbaseRetail,
      columns: coinbaseStart + [
        "spot price currency", "spot price at transaction", "subtotal",
        "total (inclusive of fees and/or spread)", "fees and/or spread", "notes",
      ]),
    .init(
      format: .coinbase, name: "Coinbase transactions 2024+ (ID, Price Currency)",
      mapper: .coinbaseRetail,
      columns: ["id"] + coinbaseStart + [
        "price currency", "price at transaction", "subtotal",
        "total (inclusive of fees and/or spread)", "fees and/or spread", "notes",
      ]),
    .init(
      format: .coinbaseExchange, name: "Coinbase Exchange fills", mapper: .coinbaseFills,
      columns: [
        "portfolio", "trade id", "product", "side", "created at", "size", "size unit", "price",
        "fee", "total", "price/fee/total unit",
      ]),
    .init(
      format: .coinbaseExchange, name: "Coinbase Exchange account", mapper: .coinbaseAccount,
      columns: [
        "portfolio", "type", "time", "amount", "balance", "amount/balance unit", "transfer id",
        "trade id", "order id",
      ]),
    .init(
      format: .coinbaseExchange, name: "Coinbase Exchange account (Timestamp)",
      mapper: .coinbaseAccount,
      columns: [
        "portfolio", "type", "timestamp", "amount", "balance", "amount/balance unit",
        "transfer id", "trade id", "order id",
      ]),
  ]

  static let krakenLedgerStart = ["txid", "refid", "time", "type"]
  static let kraken: [ExchangeLayout] = [
    .init(
      format: .kraken, name: "Kraken trades", mapper: .krakenTrades,
      columns: [
        "txid", "ordertxid", "pair", "time", "type", "ordertype", "price", "cost", "fee", "vol",
        "margin", "misc", "ledgers",
      ], trailingColumns: true),
    .init(
      format: .krakenLedgers, name: "Kraken ledgers (12 columns, subclass and wallet)",
      mapper: .krakenLedgers,
      columns: krakenLedgerStart + [
        "subtype", "aclass", "subclass", "asset", "wallet", "amount", "fee", "balance",
      ]),
    .init(
      format: .krakenLedgers, name: "Kraken ledgers (11 columns, wallet)", mapper: .krakenLedgers,
      columns: krakenLedgerStart + [
        "subtype", "aclass", "asset", "wallet", "amount", "fee", "balance",
      ]),
    .init(
      format: .krakenLedgers, name: "Kraken ledgers (10 columns)", mapper: .krakenLedgers,
      columns: krakenLedgerStart + ["subtype", "aclass", "asset", "amount", "fee", "balance"]),
    .init(
      format: .krakenLedgers, name: "Kraken ledgers (9 columns, no subtype)",
      mapper: .krakenLedgers,
      columns: krakenLedgerStart + ["aclass", "asset", "amount", "fee", "balance"]),
  ]

  static let statementEnd = ["account", "operation", "coin", "change", "remark"]
  static let tradeEnd = ["pair", "side", "price", "executed", "amount", "fee"]
  static let binance: [ExchangeLayout] = [
    .init(
      format: .binance, name: "Binance statement 2020-22 (UTC_Time)", mapper: .binanceStatement,
      columns: ["utc_time"] + statementEnd),
    .init(
      format: .binance, name: "Binance statement 2022-24 (User_ID, UTC_Time)",
      mapper: .binanceStatement, columns: ["user_id", "utc_time"] + statementEnd),
    .init(
      format: .binance, name: "Binance transaction history 2023+ (User ID, Time)",
      mapper: .binanceStatement, columns: ["user id", "time"] + statementEnd),
    .init(
      format: .binance, name: "Binance trade history 2021+ (Date(UTC), Pair)",
      mapper: .binanceTrades, columns: ["date(utc)"] + tradeEnd),
    .init(
      format: .binance, name: "Binance spot trade history 2023+ (Time, Pair)",
      mapper: .binanceTrades, columns: ["time"] + tradeEnd),
    .init(
      format: .binance, name: "Binance deposit history 2023+", mapper: .binanceDeposits,
      columns: ["time", "coin", "network", "amount", "address", "txid", "status"]),
    .init(
      format: .binance, name: "Binance withdraw history 2023+", mapper: .binanceWithdrawals,
      columns: ["time", "coin", "network", "amount", "fee", "address", "txid", "status"]),
    .init(
      format: .binance, name: "Binance fiat deposit/withdrawal history", mapper: .binanceFiat,
      columns: [
        "date(utc)", "coin", "amount", "status", "payment method", "indicated amount", "fee",
        "order id",
      ]),
    .init(
      format: .binance, name: "Binance buy crypto history", mapper: .binanceCard,
      columns: [
        "date(utc)", "method", "amount", "price", "fees", "final amount", "status",
        "transaction id",
      ]),
  ]
}
