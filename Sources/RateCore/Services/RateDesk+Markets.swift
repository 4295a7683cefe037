/// The market rows of one currency: the top coins, and the followed coins
/// outside the top.
public struct MarketListing: Sendable {
  /// The currency.
  public var currency: CurrencyCode
  /// The top coins by market cap, best first; its
  /// ``CachedAnswer/missing`` names all the listing lacks (ranks of a failed
  /// page, followed coins with no row).
  public var top: MarketService.Answer<[CoinMarket]>
  /// The followed coins that are not in ``top``, if any.
  public var others: MarketService.Answer<[CoinMarket]>?
}

/// The listings of several currencies: those that arrived, and the currencies that did not.
public struct MarketListings: Sendable {
  /// One listing per currency that arrived, in the order asked.
  public var listings: [MarketListing] = []
  /// The currencies whose listing failed, with the failure.
  public var missing: [MissingFigure] = []
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
  /// caller shows them as missing) rather than failing the listing. A currency whose
  /// listing fails is left out and named in ``MarketListings/missing``; the others stand.
  public func listings(in currencies: [CurrencyCode], top limit: Int, following coins: [Asset])
    async -> MarketListings
  {
    let service = marketService()
    let fetched = await withTaskGroup(of: CurrencyListing.self) { group in
      for currency in currencies {
        group.addTask {
          CurrencyListing(
            currency: currency,
            result: await Result { try await listing(currency, top: limit, following: coins, service: service) })
        }
      }
      var results: [CurrencyCode: Result<MarketListing, any Error>] = [:]
      for await item in group { results[item.currency] = item.result }
      return results
    }
    var listings = MarketListings()
    for currency in currencies {
      switch fetched[currency] {
      case .success(let listing)?: listings.listings.append(listing)
      case .failure(let error)?:
        listings.missing.append(
          MissingFigure("the top \(limit) coins in \(currency)", failure: error))
      case nil: break
      }
    }
    return listings
  }

  /// One currency's listing inside ``listings(in:top:following:)``'s task group.
  private struct CurrencyListing: Sendable {
    var currency: CurrencyCode
    var result: Result<MarketListing, any Error>
  }

  private func listing(
    _ currency: CurrencyCode, top limit: Int, following coins: [Asset], service: MarketService
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
        lacking += missing.map { "\($0.symbol)/\(currency)" }
      }
    }
    top.missing = lacking
    return MarketListing(currency: currency, top: top, others: others.value.isEmpty ? nil : others)
  }
}
