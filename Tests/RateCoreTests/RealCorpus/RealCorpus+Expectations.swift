import RateCore
import RatesExpectations
import RatesTestSupport
import Testing

// What each real recorded body must give. The status is the recorded one
// (or, where the source did not show it, the status the manifest names).

extension RealCorpus {
  static func seconds(_ value: Double) -> Date { Date(timeIntervalSince1970: value) }

  static func prices(
    ids: [String], _ currencies: [String],
    _ check: @escaping @Sendable ([String: [String: CoinGeckoClient.Price]]) throws -> Void
  ) -> Expectation {
    Expectation(
      status: 200, call: .simplePrice(ids: ids, currencies: currencies),
      outcome: .decodes { answer in
        guard case .prices(let prices) = answer else { throw CorpusFailure.wrongAnswer }
        try check(prices)
      })
  }

  static func chart(
    count: Int, first: Double, last: (ms: Double, value: Double)
  ) -> Expectation {
    Expectation(
      status: 200, call: .marketChart(id: "bitcoin", currency: "usd", days: 30),
      outcome: .decodes { answer in
        guard case .samples(let samples) = answer else { throw CorpusFailure.wrongAnswer }
        expectEqual(samples.count, count)
        expectEqual(samples.first?.1, first)
        expectEqual(samples.last?.0, Date(timeIntervalSince1970: last.ms / 1000))
        expectEqual(samples.last?.1, last.value)
        // Oldest first, whatever order the body had.
        expectEqual(samples.map(\.0), samples.map(\.0).sorted())
      })
  }

  static func markets(_ check: @escaping @Sendable ([CoinMarket]) throws -> Void) -> Expectation {
    Expectation(
      status: 200, call: .markets(currency: "usd"),
      outcome: .decodes { answer in
        guard case .markets(let rows) = answer else { throw CorpusFailure.wrongAnswer }
        try check(rows)
      })
  }

  static func search(_ check: @escaping @Sendable ([CoinGeckoClient.SearchResult]) throws -> Void)
    -> Expectation
  {
    Expectation(
      status: 200, call: .search("eth"),
      outcome: .decodes { answer in
        guard case .search(let results) = answer else { throw CorpusFailure.wrongAnswer }
        try check(results)
      })
  }

  static func current(_ code: String, _ rate: Double, updated: String) -> Expectation {
    Expectation(
      status: 200, call: .coinDeskCurrent(code),
      outcome: .decodes { answer in
        guard case .current(let value, let date) = answer else { throw CorpusFailure.wrongAnswer }
        expectEqual(value, rate)
        expectEqual(date, ISO8601.parse(updated))
      })
  }

  static func closes(
    _ code: String, _ start: String, _ end: String, count: Int,
    first: (String, Double)?, last: (String, Double)?
  ) -> Expectation {
    Expectation(
      status: 200, call: .coinDeskHistory(code, start: start, end: end),
      outcome: .decodes { answer in
        guard case .points(let points) = answer else { throw CorpusFailure.wrongAnswer }
        expectEqual(points.count, count)
        expect(points.first.map { ($0.date.description, $0.rate) } ?? ("", 0) == first ?? ("", 0))
        expect(points.last.map { ($0.date.description, $0.rate) } ?? ("", 0) == last ?? ("", 0))
      })
  }

  static func latest(_ pairs: [String], date: String, _ expected: [String: Double]) -> Expectation {
    Expectation(
      status: 200, call: .latest(pairs),
      outcome: .decodes { answer in
        guard case .latest(let day, let rates) = answer else { throw CorpusFailure.wrongAnswer }
        expectEqual(day.description, date)
        for (pair, rate) in expected {
          let key = try require(CurrencyPairKey(pair))
          expectEqual(rates[key], rate, "\(pair)")
        }
        expectEqual(rates.count, expected.count)
      })
  }

  static func fails(
    _ status: Int, _ call: Call, _ error: ProviderError, headers: [String: String] = [:]
  ) -> Expectation {
    Expectation(status: status, headers: headers, call: call, outcome: .fails(error))
  }

  static func json(_ check: @escaping @Sendable (Any) throws -> Void) -> Expectation {
    Expectation(status: 200, call: nil, outcome: .notCalled(check))
  }

  /// Every supported vs_currency a real list names is one `rates` accepts.
  static let vsCurrencies = json { object in
    let codes = try require(object as? [String])
    expect(codes.count > 50)
    let unknown = codes.map { $0.uppercased() }.filter { !CurrencyCodes.coinGeckoQuotes.contains($0) }
    expect(unknown.isEmpty, "not in CurrencyCodes.coinGeckoQuotes: \(unknown)")
  }

  static func coin(id: String, usd: Double?) -> Expectation {
    json { object in
      let coin = try require(object as? [String: Any])
      expectEqual(coin["id"] as? String, id)
      let market = coin["market_data"] as? [String: Any]
      let price = (market?["current_price"] as? [String: Any])?["usd"] as? Double
      expectEqual(price, usd)
    }
  }

  static let cg = Provider.coinGecko
  static let cd = Provider.coinDesk
  static let ff = Provider.frankfurter
  static let rateLimitedNow = ProviderError.rateLimited(provider: .provider(cg), retryAfter: nil)

  static let expectations: [String: Expectation] =
    coinGeckoExpectations
    .merging(coinDeskExpectations) { $1 }.merging(frankfurterExpectations) { $1 }
    .merging(exchangeExpectations) { $1 }.merging(ecbExpectations) { $1 }
}

enum CorpusFailure: Error {
  case wrongAnswer
}
