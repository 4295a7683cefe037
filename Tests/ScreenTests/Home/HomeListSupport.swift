@testable import RateCore
@testable import RatesCLI

/// Fixed data for the home list's tests: a board of top coins, own coins and pairs.
enum HomeListSupport {
  /// Monday 2024-06-10 06:13:20 UTC, as the other goldens.
  static let now = Date(timeIntervalSince1970: 1_718_000_000)

  static func week(_ start: Double, _ end: Double) -> [Double] {
    (0..<7).map { (day: Int) -> Double in
      let trend: Double = start + (end - start) * Double(day) / 6
      let wobble: Double = (Double(day % 3) - 1) * abs(end - start) / 5
      return trend + wobble
    }
  }

  static func coin(
    _ kind: HomeRow.Kind, _ id: String, _ symbol: String, _ name: String, _ rate: Double?,
    _ change: Double?, currency: String = "USD"
  ) -> HomeRow {
    HomeRow(
      kind: kind, id: id, symbol: symbol, name: name, currency: currency, rate: rate,
      changePercent: change, changePeriod: .hours24,
      week: rate.map { week($0 * (1 - (change ?? 0) / 25), $0) } ?? [])
  }

  static func pair(_ base: String, _ quote: String, _ rate: Double, _ change: Double) -> HomeRow {
    HomeRow(
      kind: .pair, id: "\(base)-\(quote)", symbol: "\(base)/\(quote)", name: "\(base)-\(quote)",
      currency: quote, rate: rate, changePercent: change, changePeriod: .workingDay,
      week: week(rate * (1 - change / 10), rate))
  }

  static let topRows = [
    coin(.top, "bitcoin", "BTC", "Bitcoin", 66_012.25, -2.51),
    coin(.top, "ethereum", "ETH", "Ethereum", 3_568.90, 2.28),
    coin(.top, "tether", "USDT", "Tether", 1.0002, 0.0),
    coin(.top, "binancecoin", "BNB", "BNB", 601.37, 0.84),
    coin(.top, "solana", "SOL", "Solana", 158.41, -5.12),
  ]

  static let ownRows = [
    coin(.coin, "kaspa", "KAS", "Kaspa", 0.16311, 7.4),
    coin(.coin, "shiba-inu", "SHIB", "Shiba Inu", 0.000016331, -1.05),
  ]

  static let pairRows = [pair("GBP", "USD", 1.2734, 0.12), pair("EUR", "JPY", 168.92, -0.4)]

  static let favoriteOnly = coin(.favorite, "monero", "XMR", "Monero", 171.2, 1.5)

  static func board(
    _ rows: [HomeRow]? = nil, currency: String = "USD", fetchedAt: Date = now, stale: Bool = false
  ) -> HomeBoard {
    HomeBoard(
      currency: currency, rows: rows ?? (topRows + ownRows + pairRows + [favoriteOnly]),
      fetchedAt: fetchedAt, stale: stale)
  }

  static func favorite(_ id: String, _ symbol: String, _ name: String) -> FavoriteCoin {
    FavoriteCoin(id: id, symbol: symbol, name: name, addedAt: now)
  }

  static let lists = HomeLists(
    coins: [favorite("kaspa", "KAS", "Kaspa"), favorite("shiba-inu", "SHIB", "Shiba Inu")],
    favorites: [favorite("bitcoin", "BTC", "Bitcoin"), favorite("monero", "XMR", "Monero")],
    pairs: [
      ConfiguredPair(base: "GBP", quote: "USD", addedAt: now),
      ConfiguredPair(base: "EUR", quote: "JPY", addedAt: now),
    ])

  /// A state on the home list with `board` loaded.
  static func state(board: HomeBoard? = board(), lists: HomeLists = lists) -> HomeState {
    var state = HomeState(
      currencies: ["USD", "EUR"], lists: lists, pickerCurrencies: ["EUR", "GBP", "USD"], now: now)
    if let board { _ = state.handle(.board(board)) }
    _ = state.handle(.status(.idle))
    return state
  }

  /// `state` after `keys`, and every effect they emitted.
  static func press(_ keys: TerminalKey..., on state: inout HomeState) -> [HomeEffect] {
    keys.flatMap { state.handle(.key($0)) }
  }
}
