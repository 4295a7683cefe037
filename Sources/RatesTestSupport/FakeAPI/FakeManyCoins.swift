import Foundation

/// A CoinGecko `/coins/markets` over many synthetic coins (`coin-0001` ranked 1,
/// `coin-0002` ranked 2, …, priced at their rank in every currency), paged as the real
/// API pages: `per_page` at most 250, `page` from 1, `ids` filtering. For tests of more
/// coins than one page holds.
///
///     let (rates, _) = try CLIHarness.withFakeAPI { fake in
///       { $0.path.hasSuffix("/coins/markets") ? FakeManyCoins.reply($0.query, count: 600) : fake($0) }
///     }
public enum FakeManyCoins {
  /// The id of the coin ranked `rank`.
  public static func id(rank: Int) -> String { "coin-" + String(format: "%04d", rank) }

  /// The `/coins/markets` body and status for `query` over `count` coins.
  public static func markets(_ query: [String: String], count: Int) -> (status: Int, body: String) {
    guard query["vs_currency"] != nil else {
      return (400, #"{"error":"Missing parameter vs_currency"}"#)
    }
    let perPage = min(max(Int(query["per_page"] ?? "") ?? 100, 1), 250)
    let page = max(Int(query["page"] ?? "") ?? 1, 1)
    var ranks = count > 0 ? Array(1...count) : []
    if let ids = query["ids"] {
      let wanted = Set(ids.split(separator: ",").map(String.init))
      ranks = ranks.filter { wanted.contains(id(rank: $0)) }
    }
    let rows = ranks.dropFirst((page - 1) * perPage).prefix(perPage).map { rank in
      "{\"id\":\"\(id(rank: rank))\",\"symbol\":\"c\(rank)\",\"name\":\"Coin \(rank)\","
        + "\"current_price\":\(rank),\"market_cap\":\(1_000_000 - rank),"
        + "\"market_cap_rank\":\(rank),\"price_change_percentage_24h\":0.5}"
    }
    return (200, "[" + rows.joined(separator: ",") + "]")
  }

  /// ``markets(_:count:)`` as a loopback reply.
  public static func reply(_ query: [String: String], count: Int) -> LoopbackReply {
    let (status, body) = markets(query, count: count)
    return .json(body, status: status)
  }
}
