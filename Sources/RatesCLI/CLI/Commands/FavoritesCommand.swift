import RateCore

/// `rates favorites [list|add|remove] …`: the coins the user starred (`rates coins` is the
/// main list of coins the user follows).
///
/// Its actions and examples are declared once for both lists (``CoinListDeclaration``,
/// ``CoinListActions``); ``CoinListCommand`` runs the action they parsed.
struct FavoritesCommand: CoinListDeclaration {
  static let name = "favorites"
  static let abstract = "list, star or unstar your favorites (starred coins)"
  static let discussion = """
    Favorites are the coins you star, apart from your coins (rates coins), which top, watch
    and the home screen follow; a favorite need not be one of your coins. The list shows each
    favorite's price and 24-hour change, one request per currency and 250 favorites
    (CoinGecko's page size), two at a time. Adding checks the coins with CoinGecko and stores
    their ids in $XDG_DATA_HOME/rates/favorites.json; adding one twice is harmless.
    """

  /// The words of its `list`, `add` and `remove` actions (``CoinListActions``).
  enum Words: CoinListWords {
    static let list = CoinList.favorites
    static let listAbstract = "your starred coins with their prices and 24-hour change"
    static let addAbstract = "check coins with CoinGecko and star them"
    static let removeAbstract = "unstar coins (they stay among your coins)"
    static let removeCompletion = LocalWords.favorites
  }
}
