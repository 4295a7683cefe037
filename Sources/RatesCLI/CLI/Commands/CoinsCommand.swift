import RateCore

/// `rates coins [list|add|remove] …`: your coins, the main list that `top`, `watch` and the
/// home screen follow after the top coins (`rates favorites` holds the starred ones).
///
/// Its actions and examples are declared once for both lists (``CoinListDeclaration``,
/// ``CoinListActions``); ``CoinListCommand`` runs the action they parsed.
struct CoinsCommand: CoinListDeclaration {
  static let name = "coins"
  static let abstract = "list, add or remove your coins (followed by top, watch and the home screen)"
  static let discussion = """
    Your coins follow the top coins in rates top and on the home screen, and rates watch
    watches them (with your pairs) when named nothing; starred coins are your favorites
    (rates favorites), a list of their own. The list shows each coin's price and 24-hour
    change (starred ones marked), one request per currency and 250 coins. Adding checks the
    coins with CoinGecko and stores their ids in $XDG_DATA_HOME/rates/coins.json; adding one
    twice is harmless. The first time after an upgrade, your favorites become your coins too
    (favorites.json is kept as favorites.json.before-coins).
    """

  /// The words of its `list`, `add` and `remove` actions (``CoinListActions``).
  enum Words: CoinListWords {
    static let list = CoinList.coins
    static let listAbstract = "your coins with their prices and 24-hour change"
    static let addAbstract = "check coins with CoinGecko and add them to your coins"
    static let removeAbstract = "take coins off your list (a starred coin stays a favorite)"
    static let removeCompletion = LocalWords.ownCoins
  }
}
