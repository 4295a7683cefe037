import RatesExpectations
import Testing

@testable import RateCore

/// The rules every layout shares: detection, the import id, refusals and hostile input.
@Suite struct ExchangeImportRulesTests {
  typealias F = ImportFixtures

  static let oneOfEach: [(String, String)] = [
    (
      "coinbase/transactions_2020_EUR_in_headers_no_preamble_buy_sell_convert__everytrade.csv",
      "Coinbase transactions 2020-21 (currency in the header)"
    ),
    (
      "coinbase/transactions_2022_spot_price_currency_total_inclusive_of_fees_AUTHOR_NUMBERS__unidentified-repo-id10899186838.csv",
      "Coinbase transactions 2022 (Spot Price Currency)"
    ),
    (
      "coinbase/transactions_2023_spot_price_preamble_fiat_withdrawal__GhostfolioSidekick.csv",
      "Coinbase transactions 2023 (Spot Price Currency, spread)"
    ),
    (
      "coinbase/transactions_2024_id_preamble_staking_income_atom__GhostfolioSidekick.csv",
      "Coinbase transactions 2024+ (ID, Price Currency)"
    ),
    ("coinbase-exchange/fills_BAT-ETH_fee_in_quote__rotki-test_coinbasepro.csv", "Coinbase Exchange fills"),
    ("coinbase-exchange/account_BAT_deposits_16dp__rotki-test_coinbasepro.csv", "Coinbase Exchange account"),
    (
      "coinbase-exchange/account_capitalised_portfolio_header_split_fills__rotki.csv",
      "Coinbase Exchange account (Timestamp)"
    ),
    ("kraken/trades_2021_ids_ANONYMIZED_ledgers_comma_space__unidentified-repo-id29236608246.csv", "Kraken trades"),
    ("kraken/ledgers_old10_AAVE_three_buys_CRLF_no_final_newline__vergiFinance.csv", "Kraken ledgers (10 columns)"),
    (
      "kraken/ledgers_new11_wallet_spot_main_negative_fee__kraken-ledgers-README.csv",
      "Kraken ledgers (11 columns, wallet)"
    ),
    (
      "kraken/ledgers_2025_12col_subclass_wallet_earn_autoallocation_ids_anonymised__vergiFinance-comment.csv",
      "Kraken ledgers (12 columns, subclass and wallet)"
    ),
    ("binance/statement_v1_no_user_id_commission_history__CoinTaxman.csv", "Binance statement 2020-22 (UTC_Time)"),
    (
      "binance/statement_v2_user_id_convert_to_EUR__unidentified-repo-id39064262105.csv",
      "Binance statement 2022-24 (User_ID, UTC_Time)"
    ),
    (
      "binance/transaction_history_2023_buy_crypto_with_fiat_transaction_buy_spend_fee_cashback__unidentified-repo-id65907890020.csv",
      "Binance transaction history 2023+ (User ID, Time)"
    ),
    (
      "binance/trade_history_2021_isolated_margin_fee_in_base_or_quote__unidentified-repo-id3981565323.csv",
      "Binance trade history 2021+ (Date(UTC), Pair)"
    ),
    (
      "binance/spot_trade_history_2023_Time_header_YY-MM-DD_fee_in_BNB_zone_in_filename_UTC-6__tallylot.csv",
      "Binance spot trade history 2023+ (Time, Pair)"
    ),
    (
      "binance/crypto_deposit_history_2023_network_txid_status_zone_in_filename_UTC-6__tallylot.csv",
      "Binance deposit history 2023+"
    ),
    (
      "binance/crypto_withdraw_history_2023_fee_column_zone_in_filename_UTC-6__tallylot.csv",
      "Binance withdraw history 2023+"
    ),
    (
      "binance/fiat_withdrawal_history_fee_outside_amount__unidentified-repo-id39064262105.csv",
      "Binance fiat deposit/withdrawal history"
    ),
    ("binance/buy_crypto_card_purchases_units_in_cells__rotki.csv", "Binance buy crypto history"),
  ]

  @Test(arguments: oneOfEach)
  func autoDetectsEachLayout(_ file: (String, String)) throws {
    let plan = try F.plan(file.0, nil)
    expectEqual(plan.layout.name, file.1)
    expectEqual(try F.plan(file.0, plan.layout.format).layout, plan.layout)
  }

  @Test func anotherExchangesFileIsRefusedNamingIt() {
    #expect(throws: ExchangeImport.Failure.self) {
      try F.plan("kraken/ledgers_old10_AAVE_three_buys_CRLF_no_final_newline__vergiFinance.csv", .coinbase)
    }
    do {
      _ = try F.plan("kraken/ledgers_old10_AAVE_three_buys_CRLF_no_final_newline__vergiFinance.csv", .binance)
    } catch {
      // RateCore names the layout; the option to type is the command line's (LedgerImportExchangeTests).
      let message = (error as? ExchangeImport.Failure)?.message ?? ""
      expect(message.hasSuffix("Kraken ledgers (10 columns) file, not Binance"), "\(message)")
    }
  }

  @Test func anUnknownLayoutNamesTheHeadersItSaw() throws {
    for file in [
      "binance/statement_v1_headerless_savings_interest_exponent__CoinTaxman.csv",
      "coinbase/transactions_hybrid_no_id_price_currency_trailing_space_preamble__GhostfolioSidekick.csv",
    ] {
      do {
        _ = try F.plan(file, nil)
        Issue.record("\(file) was read")
      } catch {
        guard let failure = error as? ExchangeImport.Failure, case .unknownLayout = failure else {
          Issue.record("\(error)")
          continue
        }
        expectContains(failure.message, "no exchange layout has the header '")
      }
    }
  }

  @Test func semicolonResavesAreRefused() throws {
    #expect(throws: ExchangeImport.Failure.semicolons(line: 1)) {
      try F.plan("binance/trade_history_2020_market_type_fee_coin_SEMICOLON__everytrade.csv", nil)
    }
  }

  /// Reading the same file twice gives the same import ids, all different (the ledger's rule,
  /// `LedgerCommand.withoutKnown`, then adds nothing the second time: see the CLI tests).
  @Test func theSameFileGivesTheSameDistinctIDs() throws {
    let path = "kraken/ledgers_old10_TRX_stake_unstake_transfers_weekly_rewards_blank_lines_CRLF__vergiFinance.csv"
    let ids = try F.plan(path, nil).entries.map(\.importID)
    expect(!ids.isEmpty && !ids.contains(nil))
    expectEqual(try F.plan(path, .krakenLedgers).entries.map(\.importID), ids)
    expectEqual(Set(ids).count, ids.count)
  }

  @Test func digestIdsAreStableAndIdenticalRowsStayApart() throws {
    let text =
      "UTC_Time,Account,Operation,Coin,Change,Remark\n"
      + "2021-01-01 10:00:00,Spot,Deposit,EUR,5,\n2021-01-01 10:00:00,Spot,Deposit,EUR,5,\n"
    let first = try ExchangeImport.read(text, fileName: "a.csv", format: .binance, recordedAt: F.recorded)
    let second = try ExchangeImport.read(text, fileName: "b.csv", format: .binance, recordedAt: F.recorded)
    expectEqual(first.entries.map(\.importID), second.entries.map(\.importID))
    expectEqual(Set(first.entries.compactMap(\.importID)).count, 2)
  }

  @Test func importIDAndRoleSurviveTheLedgerFile() throws {
    let plan = try F.plan("kraken/ledgers_old10_trade_buy_DOT_fee_on_both_legs__PP-Crypto-Parser-test.csv", nil)
    for var entry in plan.entries {
      entry.id = 9
      let line = try LedgerLineWriter.add(entry)
      let read = try line.withUnsafeBufferPointer { buffer throws(LedgerLineError) in
        try LedgerLineParser.parse(buffer, 0..<(buffer.count - 1))
      }
      expectEqual(read.entry, entry)
    }
  }

  // MARK: - Hostile input

  static let header =
    "\"txid\",\"refid\",\"time\",\"type\",\"subtype\",\"aclass\",\"asset\",\"amount\",\"fee\",\"balance\""
  static let row =
    "\"L1\",\"R1\",\"2022-01-01 10:00:00\",\"deposit\",\"\",\"currency\",\"ZEUR\",\"1,234.50\",0,\"1,234.50\""

  @Test func aBOMCRLFAndQuotedThousandsAreRead() throws {
    let text = "\u{FEFF}" + Self.header + "\r\n" + Self.row + "\r\n"
    let plan = try ExchangeImport.read(text, fileName: "l.csv", format: nil, recordedAt: F.recorded)
    expectEqual(F.lines(plan), ["2022-01-01 deposit 1234.5 EUR @L1"])
  }

  @Test func aNULByteIsOneError() {
    let text = Self.header + "\n" + Self.row + "\u{0}\n"
    #expect(throws: ExchangeImport.Failure.notText(line: 2)) {
      try ExchangeImport.read(text, fileName: "l.csv", format: nil, recordedAt: F.recorded)
    }
  }

  @Test func aMegabyteLineIsOneUnmappableRowNamedInAFewWords() throws {
    let long = String(repeating: "9", count: 1024 * 1024)
    let text = Self.header + "\n" + Self.row.replacing("\"1,234.50\",0", with: long + ",0") + "\n"
    let plan = try ExchangeImport.read(text, fileName: "l.csv", format: nil, recordedAt: F.recorded)
    expectEqual(plan.unmappable.map(\.line), [2])
    expect(plan.unmappable[0].reason.count < 200)
  }

  @Test(arguments: [
    ("-5", "is negative"), ("", "the cost is empty"), ("abc", "is not a number"),
  ])
  func badAmountsNameTheirLine(_ amount: (String, String)) throws {
    let text =
      "txid,ordertxid,pair,time,type,ordertype,price,cost,fee,vol,margin,misc,ledgers\n"
      + "T1,O1,XXBTZEUR,2021-02-02 13:30:51,buy,market,1,\(amount.0),0.1,2,0,,\n"
    let plan = try ExchangeImport.read(text, fileName: "t.csv", format: .kraken, recordedAt: F.recorded)
    expectEqual(plan.unmappable.map(\.line), [2])
    expectEqual(plan.unmappable.first?.reason.contains(amount.1), true)
  }

  @Test func anUnclosedQuoteIsOneError() {
    #expect(throws: ExchangeImport.Failure.self) {
      try ExchangeImport.read(Self.header + "\n\"L1,", fileName: "l.csv", format: nil, recordedAt: F.recorded)
    }
  }
}
