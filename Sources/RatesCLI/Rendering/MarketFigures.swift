import RateCore

/// A coin's market figures as the rows of a table, for `info` and the home screen's detail:
/// price with its 24-hour change, market cap, volume, the 24-hour low and high, the all-time
/// high and low with their dates and the distance from them, and the supply (`—` where
/// CoinGecko has none). Narrowing drops the distances, then the dates and the change;
/// a number is never cut.
enum MarketFigures {
  /// The table the rows go in: label, value, then two columns that give way first.
  static func table() -> TextTable {
    TextTable(
      columns: [
        .init("", priority: TextTable.required),
        .init("", alignment: .right, priority: TextTable.required),
        .init("", priority: 2), .init("", priority: 1),
      ], showsHeader: false)
  }

  /// The rows for `market`, amounts in `code`.
  static func rows(_ market: CoinMarket, code: String, style: Style, ascii: Bool) -> [[String]] {
    let dash = ascii ? "-" : "—"
    func money(_ value: Double?) -> String { value.map { RateFormat.amount($0, code: code) } ?? dash }
    func big(_ value: Double?) -> String {
      value.flatMap { $0 > 0 ? RateFormat.compact($0) + " " + code : nil } ?? dash
    }
    func supply(_ value: Double?) -> String {
      value.flatMap { $0 > 0 ? RateFormat.compact($0) : nil } ?? dash
    }
    func extreme(_ label: String, _ value: Double?, _ date: Date?, _ distance: Double?) -> [String] {
      [
        label, money(value), date.map { Day(containing: $0).description } ?? "",
        distance.map { style.change(RateFormat.percent($0), value: $0) + " from it" } ?? "",
      ]
    }
    let change = market.priceChangePercentage24h.map {
      style.change(RateFormat.percent($0), value: $0) + " 24h"
    }
    return [
      ["price", money(market.currentPrice), change ?? ""],
      ["market cap", big(market.marketCap)],
      ["volume 24h", big(market.totalVolume)],
      ["24h low", money(market.low24h)],
      ["24h high", money(market.high24h)],
      extreme("all-time high", market.ath, market.athDate, market.athChangePercentage),
      extreme("all-time low", market.atl, market.atlDate, market.atlChangePercentage),
      ["circulating", supply(market.circulatingSupply)],
      ["total supply", supply(market.totalSupply)],
      ["max supply", supply(market.maxSupply)],
    ]
  }
}
