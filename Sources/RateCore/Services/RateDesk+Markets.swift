/// The market rows of one currency: the top coins, and the followed coins
/// outside the top.
public struct MarketListing: Sendable {
  /// The currency, as asked.
  public var currency: String
  /// The top coins by market cap, best first; its
  /// ``CachedAnswer/missing`` names all the listing lacks (ranks of a failed
  /// page, followed coins with no row).
  public var top: MarketService.Answer<[CoinMarket]>
  /// The followed coins that are not in ``top``, if any.
  public var others: MarketService.Answer<[CoinMarket]>?
}

extension RateDesk {
  /// How many top coins one request fetches when there are coins to follow: most followed
  /// coins are among them, so they cost no second request.
  public static let followedCoinsPage = 100

  /// The top `limit` coins in each of `currencies`, and the coins
  /// `following` outside the top, one listing per currency in that order,
  /// fetched concurrently. With coins to follow, one request for the top 100
  /// usually covers them too; only coins outside it cost a second request.
  /// An answer with nothing for those leaves them out (the top stands; the
  /// caller shows them as missing) rather than failing the listing.
  public func listings(in currencies: [String], top limit: Int, following coins: [Asset])
    async throws -> [MarketListing]
  {
    let service = marketService()
    let fetched = try await withThrowingTaskGroup(of: MarketListing.self) { group in
      for currency in currencies {
        group.addTask { try await listing(currency, top: limit, following: coins, service: service) }
      }
      var results: [String: MarketListing] = [:]
      for try await result in group { results[result.currency] = result }
      return results
    }
    return currencies.compactMap { fetched[$0] }
  }

  private func listing(
    _ currency: String, top limit: Int, following coins: [Asset], service: MarketService
  ) async throws -> MarketListing {
    let ids = coins.map(\.id)
    let fetched = try await service.markets(
      currency: currency, top: ids.isEmpty ? limit : max(limit, Self.followedCoinsPage))
    var top = fetched
    top.value = Array(fetched.value.prefix(limit))
    var others = fetched
    others.value = fetched.value.dropFirst(limit).filter { ids.contains($0.id) }
    others.missing = []
    var lacking = fetched.missing
    let missing = coins.filter { coin in !fetched.value.contains { $0.id == coin.id } }
    if !missing.isEmpty {
      do {
        let more = try await service.markets(currency: currency, coins: missing)
        others.value += more.value
        others.staleness = others.staleness ?? more.staleness
        lacking += more.missing
      } catch ProviderError.noData {
        // Known coins the answer has nothing for: missing data, not a failed top.
        lacking += missing.map { "\($0.symbol)/\(currency.uppercased())" }
      }
    }
    top.missing = lacking
    return MarketListing(currency: currency, top: top, others: others.value.isEmpty ? nil : others)
  }
}
