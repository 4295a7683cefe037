import RatesExpectations
import Testing

@testable import RateCore

/// Kraken ledgers.csv and trades.csv against the real files, each row's entries spelled out.
@Suite struct KrakenImportTests {
  typealias F = ImportFixtures

  @Test func ledgerTradeIsTwoLegsAndTheFeeOnTheEuroLeg() throws {
    let plan = try F.plan(
      "kraken/ledgers_old10_trade_buy_XXBT_with_ZEUR_fee_on_quote__PP-Crypto-Parser-test.csv", .krakenLedgers)
    expectEqual(plan.layout.name, "Kraken ledgers (10 columns)")
    expectEqual(
      F.lines(plan),
      [
        "2022-02-24 sell 1499.9999 EUR for 0.04746069 BTC @TTWFFE-HZX34-2EEGRM",
        "2022-02-24 withdrawal 2.4 EUR fee @TTWFFE-HZX34-2EEGRM#fee",
      ])
    expect(plan.unmappable.isEmpty)
  }

  @Test func feesOnBothLegsAreTwoFeeLegs() throws {
    let plan = try F.plan(
      "kraken/ledgers_old10_trade_buy_DOT_fee_on_both_legs__PP-Crypto-Parser-test.csv", .krakenLedgers)
    expectEqual(
      F.lines(plan),
      [
        "2022-02-24 sell 693 EUR for 54.00387298 DOT @TBCS6K-4RXM6-MGRNUC",
        "2022-02-24 withdrawal 0.2337 EUR fee @TBCS6K-4RXM6-MGRNUC#fee",
        "2022-02-24 withdrawal 0.12220006 DOT fee @TBCS6K-4RXM6-MGRNUC#fee2",
      ])
  }

  @Test func pendingCopiesAreLeftOutAndWithdrawalFeesAreLegs() throws {
    let plan = try F.plan(
      "kraken/ledgers_old10_crypto_withdrawals_pending_row_empty_balance__PP-Crypto-Parser.csv", .krakenLedgers)
    expectEqual(
      F.lines(plan),
      [
        "2021-11-03 withdrawal 0.03076 BTC @LU6WLT-MWUUY-BVWZ6E",
        "2021-11-03 withdrawal 0.00015 BTC fee @LU6WLT-MWUUY-BVWZ6E#fee",
        "2021-11-03 withdrawal 0.35966 ETH @LZUN3G-CKFHJ-SPCPCB",
        "2021-11-03 withdrawal 0.0035 ETH fee @LZUN3G-CKFHJ-SPCPCB#fee",
        "2021-11-03 withdrawal 36.1477171 DOT @LISGE7-RAPDY-QMZ626",
        "2021-11-03 withdrawal 0.05 DOT fee @LISGE7-RAPDY-QMZ626#fee",
      ])
    expectEqual(plan.skipped.map(\.line), [2, 4, 6])
  }

  @Test func stakingCycleIsIncomeAndOwnMovesAddNothing() throws {
    let plan = try F.plan(
      "kraken/ledgers_old10_TRX_stake_unstake_transfers_weekly_rewards_blank_lines_CRLF__vergiFinance.csv",
      .krakenLedgers)
    let lines = F.lines(plan)
    expectEqual(lines.first, "2021-03-09 sell 499.4582 EUR for 11286.68171558 TRX @TUO6RG-2YEOW-HUBEBZ")
    expect(lines.contains("2022-04-05 deposit 4.894407 TRX income @LYT5ZQ-GE2UQ-JBJMDX"))
    expect(lines.contains("2022-05-31 sell 11395.86825 TRX for 855.5004 EUR @TXPDY2-BBWGM-GECRF2"))
    expect(lines.contains("2022-06-07 deposit 1.37909 TRX income @LBEWM3-W6GWD-FBOECU"))
    expectEqual(lines.filter { $0.contains(" income ") }.count, 10)
    expectEqual(plan.ownMoves, 4)
    expect(plan.unmappable.isEmpty)
    expect(!lines.contains { $0.contains("TRX.S") })
  }

  @Test func elevenColumnsWithANegativeFee() throws {
    let plan = try F.plan("kraken/ledgers_new11_wallet_spot_main_negative_fee__kraken-ledgers-README.csv", nil)
    expectEqual(plan.layout.name, "Kraken ledgers (11 columns, wallet)")
    expectEqual(
      F.lines(plan),
      [
        "2018-01-09 deposit 200 EUR @LMEUII-4CF32-WGJ2TD",
        "2018-01-09 sell 25.28 EUR for 0.002 BTC @T4CEZL-KFN6U-NUFCE7",
        "2018-01-09 withdrawal 0.0657 EUR fee @T4CEZL-KFN6U-NUFCE7#fee",
      ])
  }

  @Test func twelveColumnEarnMovesAreOwnAccountMoves() throws {
    let plan = try F.plan(
      "kraken/ledgers_2025_12col_subclass_wallet_earn_autoallocation_ids_anonymised__vergiFinance-comment.csv", nil)
    expect(plan.entries.isEmpty)
    expectEqual(plan.ownMoves, 4)
  }

  @Test func aPlaceholderBalanceBlocksItsLine() throws {
    let plan = try F.plan("kraken/ledgers_old10_placeholder_ids_spend_receive__CoinTaxman.csv", .krakenLedgers)
    expectEqual(plan.unmappable.first?.line, 2)
    expectEqual(plan.unmappable.first?.reason.contains("balance"), true)
  }

  @Test func tradesSplitPairsAndChargeTheFeeInTheQuote() throws {
    let plan = try F.plan("kraken/trades_placeholder_ids_ledgers_split_in_two_fields__CoinTaxman.csv", .kraken)
    expectEqual(
      F.lines(plan),
      [
        "2021-02-02 sell 997.4067 EUR for 0.03441778 BTC @<example-trades-txid-1>",
        "2021-02-02 withdrawal 2.59326 EUR fee @<example-trades-txid-1>#fee",
        "2021-02-02 sell 0.00023108 BTC for 8.05962 USDC @<example-trades-txid-2>",
        "2021-02-02 withdrawal 0.02096 USDC fee @<example-trades-txid-2>#fee",
        "2021-02-08 sell 8.01781 USDC for 0.00020519 BTC @<example-trades-txid-3>",
        "2021-02-08 withdrawal 0.02085 USDC fee @<example-trades-txid-3>#fee",
      ])
  }

  @Test func aMarginTradeAndAMissingPairAreUnmappable() throws {
    let margin = try F.plan(
      "kraken/trades_2017_margin_filled_ids_obfuscated__unidentified-repo-id47782500107.csv", .kraken)
    expectEqual(margin.unmappable.map(\.line), [2])
    expectEqual(margin.unmappable.first?.reason.contains("margin"), true)
    let missing = try F.plan("kraken/trades_unquoted_short_ids_second_row_missing_pair__everytrade.csv", .kraken)
    expectEqual(missing.unmappable.map(\.line), [3])
  }

  @Test func excelDatesAreRefusedWithTheirLine() throws {
    let plan = try F.plan("kraken/trades_excel_resaved_US_dates_no_final_newline__everytrade.csv", .kraken)
    expect(!plan.unmappable.isEmpty)
    expect(plan.unmappable.allSatisfy { $0.reason.contains("cannot read the date") })
  }

  @Test func assetCodesComeFromOneTable() {
    expectEqual(AssetSymbols.kraken("XXBT"), "BTC")
    expectEqual(AssetSymbols.kraken("XXDG"), "DOGE")
    expectEqual(AssetSymbols.kraken("XTZ"), "XTZ")
    expectEqual(AssetSymbols.kraken("ATOM.S"), "ATOM")
    expect(AssetSymbols.splitKrakenPair("XXBTZEUR")! == ("BTC", "EUR"))
    expect(AssetSymbols.splitKrakenPair("XBTUSDC")! == ("BTC", "USDC"))
    expect(AssetSymbols.splitKrakenPair("XETHXXBT")! == ("ETH", "BTC"))
    expect(AssetSymbols.splitKrakenPair("POL/EUR")! == ("POL", "EUR"))
  }
}
