import RateCore
import RatesExpectations
import RatesTestSupport
import Testing

// The table itself, one entry per file under fixtures/real/<api>/.

extension RealCorpus {
  static let coinGeckoExpectations: [String: Expectation] = [
    // /coins/{id}: not called by `rates` (info uses /coins/markets and market_chart).
    "coingecko/coin_full_bitcoin_docs_sample__CoinGecko.Net.json": coin(id: "bitcoin", usd: 69840),
    "coingecko/coin_full_poa-network_2019__blockscout.json": coin(id: "poa-network", usd: 0.01345698),
    "coingecko/coin_no_market_data_platforms_empty_key__unidentified-repo-id15262439922.json":
      coin(id: "aidos-kuneen", usd: nil),
    // /coins/list: not called (symbols resolve through /search).
    "coingecko/coins_list_partial__go-gecko.json": json { expectEqual(($0 as? [Any])?.count, 41) },
    "coingecko/coins_list_partial__pycoingecko.json": json { expectEqual(($0 as? [Any])?.count, 7) },
    // /ping: called by `rates doctor`, which only needs a 200.
    "coingecko/ping__go-gecko.json": json {
      expectEqual(($0 as? [String: String])?["gecko_says"], "(V3) To the Moon!")
    },
    "coingecko/ping__rotki-issue10292.json": json {
      expectEqual(($0 as? [String: String])?["gecko_says"], "(V3) To the Moon!")
    },
    "coingecko/supported_vs_currencies_2019__go-gecko.json": vsCurrencies,
    "coingecko/supported_vs_currencies_2019_requoted__pycoingecko.json": vsCurrencies,
    "coingecko/supported_vs_currencies_2023__unidentified-repo-id47891616309.json": vsCurrencies,

    // /coins/markets
    "coingecko/coins_markets_2018_string_numbers__pycoingecko.json": markets { rows in
      let row = try require(rows.first)
      expectEqual(rows.count, 1)
      expect(row.id == "bitcoin" && row.symbol == "BTC")
      expectEqual(row.currentPrice, 7015.11823787848)
      expectEqual(row.priceChangePercentage24h, 4.46323343521924)
      expectEqual(row.circulatingSupply, 17_236_100)
      expect(row.totalSupply == nil && row.maxSupply == nil)
      expectEqual(row.ath, 19665.3949272416)
      expectEqual(row.lastUpdated, ISO8601.parse("2018-08-28T12:12:53.390Z"))
    },
    "coingecko/coins_markets_docs_sample__CoinGecko.Net.json": markets { rows in
      let row = try require(rows.first)
      expectEqual(row.currentPrice, 70187)
      expectEqual(row.marketCap, 1_381_651_251_183)
      expectEqual(row.maxSupply, 21_000_000)
      expectEqual(row.priceChangePercentage24h, 3.12502)
    },
    "coingecko/coins_markets_frax_max_supply_null__unidentified-repo-id47891616309.json": markets {
      rows in
      let row = try require(rows.first)
      expectEqual(row.currentPrice, 0.999338)
      expectEqual(row.marketCapRank, 100)
      expectEqual(row.maxSupply, nil)
      expectEqual(row.lastUpdated, ISO8601.parse("2023-12-21T20:49:29Z"))
    },

    // Errors, in every recorded shape.
    "coingecko/error_10010_pro_key_on_public_host__unidentified-repo-id30895599367.json": fails(
      400, .simplePrice(ids: ["bitcoin"], currencies: ["usd"]),
      .keyPlanMismatch(provider: .provider(cg), code: 10010, sent: .pro)),
    "coingecko/error_10011_demo_key_on_pro_host__unidentified-repo-id30387320500.json": fails(
      400, .search("eth"), .keyPlanMismatch(provider: .provider(cg), code: 10011, sent: .demo)),
    "coingecko/error_10012_range_days_max__electron-cash-issue2825.json": fails(
      401, .marketChart(id: "bitcoin-cash", currency: "EUR", days: 400), .historyTooOld(provider: .provider(cg))),
    "coingecko/error_10012_range_days_max__waxtax-pr8.json": fails(
      401, .marketChart(id: "wax", currency: "usd", days: 366), .historyTooOld(provider: .provider(cg))),
    "coingecko/error_400_invalid_vs_currency__unidentified-repo-id68784287318.json": fails(
      400, .markets(currency: "usdt"), .invalidCurrency(provider: .provider(cg), currency: "USDT")),
    "coingecko/error_404_coin_not_found__unidentified-repo-id55272097999.json": fails(
      404, .marketChart(id: "no-such-coin", currency: "usd", days: 7),
      .coinNotFound(provider: .provider(cg), coin: "no-such-coin")),
    "coingecko/error_could_not_find_coin_pretty__pycoingecko-issue42.json": fails(
      404, .marketChart(id: "uniswap-x", currency: "usd", days: 7),
      .coinNotFound(provider: .provider(cg), coin: "uniswap-x")),
    "coingecko/error_429_cloudflare_1015_html__telliot-feeds.html": fails(
      429, .simplePrice(ids: ["bitcoin"], currencies: ["usd"]), rateLimitedNow),
    "coingecko/error_429_cloudflare_1015_text__coingecko-api-js-issue38.txt": fails(
      429, .simplePrice(ids: ["bitcoin"], currencies: ["usd"]), rateLimitedNow),
    "coingecko/error_429_json__cryptgo-issue30.json": fails(
      429, .markets(currency: "usd"), rateLimitedNow),
    "coingecko/error_429_json_retry_after_119__jetpack-compose-crypto-pr45.json": fails(
      429, .marketChart(id: "ethereum", currency: "usd", days: 30),
      .rateLimited(provider: .provider(cg), retryAfter: 119), headers: ["Retry-After": "119"]),
    "coingecko/error_429_throttled_text__l2beat-pr4730.txt": fails(
      429, .search("btc"), rateLimitedNow),
    "coingecko/error_500_html_PREFIX_ONLY__pycoingecko-pr9.html": fails(
      500, .simplePrice(ids: ["bitcoin"], currencies: ["usd"]), .serverError(provider: .provider(cg), status: 500)),

    // /coins/{id}/market_chart (and /range, the same shape)
    "coingecko/market_chart_daily_exponent_prices__alephium-explorer-backend.json": chart(
      count: 6, first: 1.6446899669484214e-05, last: (1_702_476_909_000, 1.895741967034403e-05)),
    "coingecko/market_chart_days1_interval_daily_two_points_exponent__unidentified-repo-id44821705572.json":
      chart(count: 2, first: 2.0704974101697713e-06, last: (1_628_732_710_000, 2.0515953199677365e-06)),
    "coingecko/market_chart_days1_prices_only_partial__pycoingecko.json": chart(
      count: 6, first: 6756.942910425894, last: (1_535_375_384_209, 6706.898948451269)),
    "coingecko/market_chart_days2_hourly_eur_zero_mcaps__unidentified-repo-id3539300908.json": chart(
      count: 49, first: 6.869869027086961e-05, last: (1_716_645_580_000, 0.00013556790057101786)),
    "coingecko/market_chart_days2_sparse_last_point_earlier__unidentified-repo-id8856441360.json":
      chart(count: 10, first: 0.23062592110552738, last: (1_623_938_675_631, 0.23062592110552738)),
    "coingecko/market_chart_range_docs_sample__CoinGecko.Net.json": chart(
      count: 3, first: 69702.3087473573, last: (1_711_983_682_000, 68887.7495158568)),
    "coingecko/market_chart_range_hourly_2022-08-08__unidentified-repo-id40824505050.json": chart(
      count: 6, first: 23988.969591535944, last: (1_659_992_517_601, 24077.6213212528)),

    // /search
    "coingecko/search_eth_docs_sample__CoinGecko.Net.json": search { results in
      expectEqual(results.map(\.id), ["ethereum", "ethereum-classic", "sweth"])
      expectEqual(results.first?.symbol, "ETH")
      expectEqual(results.first?.marketCapRank, 2)
    },
    "coingecko/search_punks_unranked_missing_thumb__unidentified-repo-id47891616309.json": search {
      results in
      expectEqual(results.count, 3)
      expect(results.allSatisfy { $0.marketCapRank == nil })
      expectEqual(results.map(\.symbol), ["HIPUNKS", "PUNK", "IPUNKS"])
    },

    // /simple/price
    "coingecko/simple_price_24h_change_five_ids_integer_btc__unidentified-repo-id62500592667.json":
      prices(ids: ["bitcoin", "cardano", "ethereum", "polkadot", "terra-luna"], ["eur"]) { prices in
        expectEqual(prices.count, 5)
        expectEqual(prices["bitcoin"]?["EUR"]?.rate, 62891)
        expectEqual(prices["bitcoin"]?["EUR"]?.change24hPercent, 0.7667721469105918)
        expectEqual(prices["ethereum"]?["EUR"]?.change24hPercent, -0.02278557832247678)
        expectEqual(prices["terra-luna"]?["EUR"]?.rate, 0.00010822)
        expectEqual(prices["bitcoin"]?["EUR"]?.updatedAt, nil)
      },
    "coingecko/simple_price__CoinGecko.Net.json": prices(ids: ["ethereum"], ["usd"]) {
      expectEqual($0["ethereum"]?["USD"]?.rate, 1498.64)
    },
    "coingecko/simple_price__pycoingecko.json": prices(ids: ["bitcoin"], ["usd"]) {
      expectEqual($0["bitcoin"]?["USD"]?.rate, 7984.89)
    },
    "coingecko/simple_price_integer_myr__go-gecko.json": prices(ids: ["bitcoin", "ethereum"], ["usd", "myr"]) {
      expectEqual($0["bitcoin"]?["MYR"]?.rate, 20474)
      expectEqual($0["ethereum"]?["USD"]?.rate, 163.58)
      expectEqual($0["ethereum"]?["MYR"]?.change24hPercent, nil)
    },
    "coingecko/simple_price_integer_usd__unidentified-repo-id47891616309.json": prices(
      ids: ["bitcoin"], ["usd"]
    ) { expectEqual($0["bitcoin"]?["USD"]?.rate, 43713) },
    "coingecko/simple_price_last_updated_at_no_change__tanglePHP.json": prices(
      ids: ["shimmer"], ["usd", "eur"]
    ) {
      expectEqual($0["shimmer"]?["USD"]?.rate, 0.087216)
      expectEqual($0["shimmer"]?["EUR"]?.rate, 0.08957)
      expectEqual($0["shimmer"]?["EUR"]?.change24hPercent, nil)
      expectEqual($0["shimmer"]?["EUR"]?.updatedAt, seconds(1_665_488_058))
    },
    "coingecko/simple_price_mcap_vol_change_lastupdated_from_byte_list__unidentified-repo-id7364300362.json":
      prices(ids: ["ethereum"], ["usd"]) {
        expectEqual($0["ethereum"]?["USD"]?.rate, 1219.4302330298838)
        expectEqual($0["ethereum"]?["USD"]?.change24hPercent, 0.23620623137614208)
        expectEqual($0["ethereum"]?["USD"]?.updatedAt, seconds(1_671_893_623))
      },
    "coingecko/simple_price_mcap_vol_change_lastupdated_full_precision__unidentified-repo-id7364300362.json":
      prices(ids: ["ethereum"], ["usd"]) {
        expectEqual($0["ethereum"]?["USD"]?.rate, 1219.3455852742827)
        expectEqual($0["ethereum"]?["USD"]?.updatedAt, seconds(1_671_893_803))
      },
    "coingecko/simple_price_single__go-gecko.json": prices(ids: ["bitcoin"], ["usd"]) {
      expectEqual($0["bitcoin"]?["USD"]?.rate, 5013.61)
    },
    "coingecko/simple_price_unknown_id_empty_object__pycoingecko-issue27.json": prices(
      ids: ["crypto.com coin"], ["cad"]
    ) { expect($0.isEmpty) },
  ]

  static let coinDeskExpectations: [String: Expectation] = [
    "coindesk/currentprice_2024_3dp_rates__springboot-ref.json": current(
      "GBP", 45987.8996, updated: "2024-08-18T04:19:23Z"),
    "coindesk/currentprice_EUR_2021__unidentified-repo-id31255022266.json": current(
      "EUR", 37150.3818, updated: "2021-08-09T08:30:00Z"),
    "coindesk/currentprice_EUR__unidentified-repo-id7068977010.json": current(
      "eur", 8164.5384, updated: "2017-11-28T04:05:00Z"),
    "coindesk/currentprice_NZD__worldwidewidget.json": current(
      "NZD", 51944.4713, updated: "2021-02-04T19:21:00Z"),
    "coindesk/currentprice__KonstInt-cryptobot.json": current(
      "USD", 28458.4225, updated: "2023-04-01T09:55:00Z"),
    "coindesk/currentprice__bitcoin-tracker.json": current(
      "EUR", 42139.6909, updated: "2023-12-07T20:29:00Z"),
    "coindesk/error_404_before_2010-07-17__pricehist.txt": fails(
      404, .coinDeskHistory("USD", start: "2010-01-01", end: "2010-07-24"),
      .noData(provider: .provider(cd), detail: "the BPI starts on 2010-07-17: ask for later days")),
    "coindesk/error_404_currency_not_found__pricehist.txt": fails(
      404, .coinDeskHistory("XZY", start: "2021-01-01", end: "2021-01-07"),
      .invalidCurrency(provider: .provider(cd), currency: "XZY")),
    "coindesk/error_404_currency_not_found_live_test__unidentified-repo-id16258946178.txt": fails(
      404, .coinDeskHistory("UNIVERSE", start: "2021-05-01", end: "2021-05-05"),
      .invalidCurrency(provider: .provider(cd), currency: "UNIVERSE")),
    "coindesk/error_404_currentprice_unsupported_currency_UNI_live_test__unidentified-repo-id16258946178.txt":
      fails(404, .coinDeskCurrent("UNI"), .invalidCurrency(provider: .provider(cd), currency: "UNI")),
    "coindesk/error_404_end_before_start__pricehist.txt": fails(
      404, .coinDeskHistory("USD", start: "2030-01-01", end: "2030-01-07"),
      .noData(provider: .provider(cd), detail: "no prices for that range")),
    "coindesk/error_500_no_results__pricehist.txt": fails(
      500, .coinDeskHistory("CUP", start: "2010-07-17", end: "2010-07-23"),
      .noData(provider: .provider(cd), detail: "no prices for that range")),
    "coindesk/historical_close_AUD_2010-07-18_to_2021-01-07_partial__pricehist.json": closes(
      "AUD", "2010-07-17", "2021-01-07", count: 14, first: ("2010-07-18", 0.0984),
      last: ("2021-01-07", 50862.227)),
    "coindesk/historical_close_AUD_2021-01-01_07__pricehist.json": closes(
      "AUD", "2021-01-01", "2021-01-07", count: 7, first: ("2021-01-01", 38204.8987),
      last: ("2021-01-07", 50862.227)),
    "coindesk/historical_close_EUR_2017-11-21_to_28__unidentified-repo-id7068977010.json": closes(
      "EUR", "2017-11-21", "2017-11-28", count: 7, first: ("2017-11-21", 6898.976),
      last: ("2017-11-27", 8184.1759)),
    "coindesk/historical_close_EUR_2021-07-09_to_08-08__unidentified-repo-id31255022266.json": closes(
      "EUR", "2021-07-09", "2021-08-09", count: 31, first: ("2021-07-09", 28462.9115),
      last: ("2021-08-08", 37248.1046)),
    "coindesk/historical_close_empty__pricehist.json": closes(
      "AUD", "2010-07-17", "2010-07-17", count: 0, first: nil, last: nil),
  ]

  static let frankfurterExpectations: [String: Expectation] = [
    // /currencies: not called (FiatCurrencies holds the list); the 2025 answer is that list.
    "frankfurter/currencies_2025__unidentified-repo-id18368475836.json": json {
      expectEqual($0 as? [String: String], FiatCurrencies.ecb)
    },
    "frankfurter/currencies_with_HRK_2022__unidentified-repo-id2594573679.json": json {
      let names = $0 as? [String: String]
      expectEqual(names?.count, 32)
      expectEqual(names?["HRK"], "Croatian Kuna")
    },
    "frankfurter/date_2020-01-01_answers_2019-12-31_pretty__frankfurter-issue31.json": latest(
      ["EUR-IDR", "EUR-USD"], date: "2019-12-31", ["EUR-IDR": 15596, "EUR-USD": 1.1234]),
    "frankfurter/date_2025-06-13_amount_1234.56_symbols_USD_JPY_PHP_BYN_omitted__phpeso.json": latest(
      ["EUR-USD", "EUR-JPY"], date: "2025-06-13",
      ["EUR-USD": 1421.23 / 1234.56, "EUR-JPY": 204863 / 1234.56]),
    "frankfurter/date_2025-06-13_base_EUR__phpeso.json": latest(
      ["EUR-INR"], date: "2025-06-13", ["EUR-INR": 99.11]),
    "frankfurter/error_404_not_found_same_currency_pretty__frankfurter-issue51.json": fails(
      404, .latest(["EUR-GBP"]), .invalidCurrency(provider: .provider(ff), currency: "EUR,GBP")),
    "frankfurter/error_404_not_found_unknown_symbol_TWD__unidentified-repo-id70119726670.json": fails(
      404, .latest(["USD-TWD"]), .invalidCurrency(provider: .provider(ff), currency: "TWD,USD")),
    "frankfurter/latest_amount_1234.56_base_PHP_symbols_CNY__phpeso.json": latest(
      ["PHP-CNY"], date: "2025-12-17", ["PHP-CNY": 148.23 / 1234.56]),
    "frankfurter/latest_base_AUD_integer_IDR__unidentified-repo-id18368475836.json": latest(
      ["AUD-IDR", "AUD-EUR"], date: "2025-01-31", ["AUD-IDR": 10143, "AUD-EUR": 0.59873]),
    "frankfurter/latest_base_EUR__phpeso.json": latest(["EUR-ISK"], date: "2025-12-17", ["EUR-ISK": 148]),
    "frankfurter/latest_base_EUR_symbols_EUR_USD_base_dropped__phpeso.json": latest(
      ["EUR-USD"], date: "2025-12-17", ["EUR-USD": 1.1722]),
    "frankfurter/latest_base_PHP_symbols_EUR_USD__phpeso.json": latest(
      ["PHP-EUR", "PHP-USD"], date: "2025-12-17", ["PHP-EUR": 0.01454, "PHP-USD": 0.01704]),
    "frankfurter/latest_base_USD_symbols_CAD_EUR_SGD__unidentified-repo-id70119726670.json": latest(
      ["USD-CAD", "USD-EUR", "USD-SGD"], date: "2026-10-07",
      ["USD-CAD": 1.4253, "USD-EUR": 0.89469, "USD-SGD": 1.2804]),
    "frankfurter/timeseries_2024-01-01..05_USD_CAD_starts_before_holiday__unidentified-repo-id70119726670.json":
      Expectation(
        status: 200, call: .series(["USD-CAD"], start: "2024-01-01", end: "2024-01-05"),
        outcome: .decodes { answer in
          guard case .series(let series) = answer else { throw CorpusFailure.wrongAnswer }
          let key = try require(CurrencyPairKey("USD-CAD"))
          let points = try require(series[key])
          expectEqual(points.count, 5)
          expectEqual(points.first?.date.description, "2023-12-29")
          expectEqual(points.first?.rate, 1.3251)
          expectEqual(points.last?.date.description, "2024-01-05")
          expectEqual(points.last?.rate, 1.3369)
        }),
    // fx-compass docs/API.md: GET /v1/2026-09-30..2026-10-02?symbols=USD,INR (base EUR implied).
    "frankfurter/timeseries_2026-09-30..10-02_EUR_INR_USD__fx-compass.json": Expectation(
      status: 200, call: .series(["EUR-USD", "EUR-INR"], start: "2026-09-30", end: "2026-10-02"),
      outcome: .decodes { answer in
        guard case .series(let series) = answer else { throw CorpusFailure.wrongAnswer }
        let usdKey = try require(CurrencyPairKey("EUR-USD"))
        let inrKey = try require(CurrencyPairKey("EUR-INR"))
        let usd = try require(series[usdKey])
        let inr = try require(series[inrKey])
        expectEqual(usd.map(\.date.description), ["2026-09-30", "2026-10-01", "2026-10-02"])
        expectEqual(usd.map(\.rate), [1.1355, 1.1298, 1.1225])
        expectEqual(inr.map(\.date.description), ["2026-09-30", "2026-10-01", "2026-10-02"])
        expectEqual(inr.map(\.rate), [108.8205, 108.832, 108.1245])
      }),
  ]
}
