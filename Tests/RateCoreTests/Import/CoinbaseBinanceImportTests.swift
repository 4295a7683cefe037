import RatesExpectations
import Testing

@testable import RateCore

/// Coinbase, Coinbase Exchange and Binance layouts against the real files.
@Suite struct CoinbaseBinanceImportTests {
  typealias F = ImportFixtures

  @Test func coinbase2020BuySellWithCurrencyInTheHeader() throws {
    let plan = try F.plan(
      "coinbase/transactions_2020_EUR_in_headers_no_preamble_buy_sell_convert__everytrade.csv", .coinbase)
    expectEqual(plan.layout.name, "Coinbase transactions 2020-21 (currency in the header)")
    expectEqual(
      F.digestLines(plan),
      [
        "2020-03-09 sell 0.03517833 BTC for 240.32 EUR @row",
        "2020-03-09 withdrawal 3.58 EUR fee @row#fee",
        "2020-07-01 sell 0.12141 BTC for 4.7987194 ETH @row",
        "2020-09-27 sell 295.6 EUR for 0.03182812 BTC @row",
        "2020-09-27 withdrawal 4.4 EUR fee @row#fee",
      ])
  }

  @Test func coinbaseConvertReadsTheReceivedCoinFromNotesWithDecimalCommas() throws {
    let plan = try F.plan(
      "coinbase/transactions_2020_EUR_full_preamble_convert_comma_decimal_notes__unidentified-repo-id39064262105.csv",
      nil)
    expectEqual(F.digestLines(plan), ["2020-02-16 sell 0.002225 BTC for 318.3483088 XLM @row"])
  }

  @Test func coinbase2024RewardIsIncomeWithItsID() throws {
    let plan = try F.plan(
      "coinbase/transactions_2024_id_preamble_reward_income_usdc__GhostfolioSidekick.csv", .coinbase)
    expectEqual(F.lines(plan), ["2024-04-05 deposit 0.002727 USDC income @660f94d6d272349fba8637d9"])
  }

  @Test func coinbaseStakingTransfersAddNothing() throws {
    let plan = try F.plan(
      "coinbase/transactions_2024_id_preamble_retail_staking_transfer_pair__GhostfolioSidekick.csv", .coinbase)
    expect(plan.entries.isEmpty)
    expectEqual(plan.ownMoves, 2)
  }

  @Test func coinbase2023MixedRowsAndAnExponent() throws {
    let plan = try F.plan(
      "coinbase/transactions_2023_spot_price_preamble_send_buy_receive_exponent_convert__GhostfolioSidekick.csv",
      .coinbase)
    expectEqual(
      F.digestLines(plan),
      [
        "2023-04-20 sell 3.86 EUR for 0.00213232 ETH @row",
        "2023-04-20 withdrawal 0.99 EUR fee @row#fee",
        "2023-04-22 deposit 0.00000001 ETH @row",
        "2023-04-26 sell 0.00052203 ETH for 0.087842 ATOM @row",
        "2023-08-19 withdrawal 0.00205323 BTC @row",
      ])
  }

  @Test func coinbaseSellWithEmptyAmountsAndFiatForFiatAreUnmappable() throws {
    let sell = try F.plan(
      "coinbase/transactions_2023_spot_price_preamble_sell_row_with_send_note__GhostfolioSidekick.csv", .coinbase)
    expectEqual(sell.unmappable.map(\.line), [9])
    let fiat = try F.plan(
      "coinbase/transactions_2023_spot_price_preamble_buy_fiat_with_fiat__GhostfolioSidekick.csv", .coinbase)
    expectEqual(fiat.unmappable.first?.reason.contains("moves nothing"), true)
  }

  @Test func coinbaseLearningRewardKeepsSixteenDecimals() throws {
    let plan = try F.plan(
      "coinbase/transactions_2024_id_preamble_learning_reward_16dp_quantity__GhostfolioSidekick.csv", .coinbase)
    expectEqual(plan.entries.first?.amount, 2.8530670470756063)
    expectEqual(plan.entries.first?.role, .income)
  }

  @Test func coinbaseExchangeFillsSignedTotals() throws {
    let plan = try F.plan("coinbase-exchange/fills_LTC-EUR_negative_total_on_buy__everytrade.csv", .coinbaseExchange)
    expectEqual(
      F.lines(plan),
      [
        "2020-05-18 sell 2.86035 LTC for 118.5043005 EUR @LTC-EUR:0",
        "2020-05-18 withdrawal 0.5925215025 EUR fee @LTC-EUR:0#fee",
        "2020-05-18 sell 123.054726048500 EUR for 2.96875093 LTC @LTC-EUR:1",
        "2020-05-18 withdrawal 0.6152736302425 EUR fee @LTC-EUR:1#fee",
      ].map { $0.replacing("123.054726048500", with: "123.0547260485") })
  }

  @Test func coinbaseExchangeAccountWithOneLegIsUnmappable() throws {
    let plan = try F.plan("coinbase-exchange/account_ETH_match_fee_withdrawal__rotki-test_coinbasepro.csv", nil)
    expectEqual(plan.unmappable.map(\.line), [2])
    expectEqual(F.lines(plan), ["2020-01-15 withdrawal 0.00110853 ETH @fcc61b23-4b51-43f8-da1e-def2d5a217ad"])
  }

  @Test func binanceStatementGroupsLegsBySecondWithFeesInTheBoughtCoin() throws {
    let plan = try F.plan(
      "binance/statement_v1_buy_fee_in_bought_coin_sell_fee_in_EUR__unidentified-repo-id39064262105.csv", .binance)
    expectEqual(
      F.digestLines(plan),
      [
        "2021-05-09 sell 99.995 EUR for 285.7 DOGE @row",
        "2021-05-09 withdrawal 0.2857 DOGE fee @row#fee",
        "2021-05-19 sell 99.981 EUR for 370.3 DOGE @row",
        "2021-05-19 withdrawal 0.3703 DOGE fee @row#fee",
        "2021-05-19 sell 99.98472 EUR for 375.6 DOGE @row",
        "2021-05-19 withdrawal 0.3756 DOGE fee @row#fee",
        "2021-05-19 sell 375.6 DOGE for 102.824256 EUR @row",
        "2021-05-19 withdrawal 0.10282426 EUR fee @row#fee",
      ])
  }

  @Test func binanceCardPurchaseInTheStatementIsADepositAndATrade() throws {
    let plan = try F.plan(
      "binance/statement_v1_transaction_related_both_legs_card_deposit__unidentified-repo-id39064262105.csv", .binance)
    let lines = F.digestLines(plan)
    expectEqual(lines.prefix(2), ["2021-02-07 deposit 98.1 EUR @row", "2021-02-07 deposit 98.1 EUR @row"])
    expect(lines.contains("2021-02-07 sell 98.1 EUR for 1884.9 DOGE @row"))
    expect(lines.contains("2021-04-20 sell 1513.5 DOGE for 507.54 EUR @row"))
    expectEqual(plan.entries.count, 2 + 6)
  }

  @Test func binanceCurrentHistoryReadsTheZoneFromTheFileName() throws {
    let plan = try F.plan(
      "binance/transaction_history_2023_user_id_time_YY-MM-DD_zone_in_filename_UTC-6__tallylot.csv", .binance)
    // The copy's name keeps `UTC-6`, the original's `(UTC--6)`: both say six hours west.
    expectEqual(
      ImportTime.binanceOffset(fileName: "Binance-Transaction-History-202603230400(UTC--6)_abcd.csv"), -21_600)
    expectEqual(ImportTime.binanceOffset(fileName: "x(UTC+5:30).csv"), 19_800)
    expectEqual(plan.unmappable.map(\.line), [7])
    expectEqual(plan.ownMoves, 2)
    expectEqual(plan.notes.count, 1)  // this copy's name lacks the parenthesised zone
    let named = try ExchangeImport.read(
      try F.text("binance/transaction_history_2023_user_id_time_YY-MM-DD_zone_in_filename_UTC-6__tallylot.csv"),
      fileName: "Binance-Transaction-History-202603230400(UTC--6)_abcd.csv", format: .binance,
      recordedAt: F.recorded)
    expect(named.notes.isEmpty)
    expectEqual(
      F.digestLines(named),
      [
        "2023-08-06 deposit 5.99e-06 ETH income @row".replacing("5.99e-06", with: "0.00000599"),
        "2023-09-21 sell 0.00005643 ETH for 0.00041767 BNB @row",
      ])
  }

  @Test func binanceTradeHistorySplitsThePairByItsUnits() throws {
    let plan = try F.plan(
      "binance/trade_history_2022_pair_side_units_glued_to_numbers__unidentified-repo-id63165078915.csv", .binance)
    expectEqual(
      F.digestLines(plan),
      [
        "2022-03-28 sell 0.18 SOL for 19.8054 BUSD @row",
        "2022-03-28 withdrawal 0.0198054 BUSD fee @row#fee",
      ])
  }

  @Test func binanceFiatHistoryTellsDepositsFromWithdrawalsByName() throws {
    let deposits = try F.plan(
      "binance/fiat_deposit_history_failed_row_blank_method__unidentified-repo-id39064262105.csv", .binance)
    expectEqual(deposits.skipped.map(\.line), [2])
    expectEqual(
      F.lines(deposits),
      [
        "2021-02-07 deposit 100 EUR @55260b157111485ca0f3d7b624974e4e",
        "2021-02-07 withdrawal 1.9 EUR fee @55260b157111485ca0f3d7b624974e4e#fee",
        "2021-02-07 deposit 100 EUR @6701084d0dc1410e96cfdc968a01ae91",
        "2021-02-07 withdrawal 1.9 EUR fee @6701084d0dc1410e96cfdc968a01ae91#fee",
      ])
    let withdrawals = try F.plan(
      "binance/fiat_withdrawal_history_fee_outside_amount__unidentified-repo-id39064262105.csv", .binance)
    expectEqual(
      F.lines(withdrawals),
      [
        "2021-05-20 withdrawal 340.77 EUR @CJW712761827822473216",
        "2021-05-20 withdrawal 0.8 EUR fee @CJW712761827822473216#fee",
      ])
  }

  @Test func binanceRotkiFileNamesEachBadRow() throws {
    let plan = try F.plan(
      "binance/statement_v2_user_id_convert_earn_staking_transfers_EDITED_rows__rotki.csv", .binance)
    let lines = Set(plan.unmappable.map(\.line))
    expect(lines.contains(5))  // empty UTC_Time
    expect(lines.contains(6))  // empty coin and change
    expect(lines.contains(42))  // operation ABC
  }
}
