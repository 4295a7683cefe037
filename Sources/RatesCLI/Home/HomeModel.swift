import RateCore

/// One row of the home list: a top coin, one of the user's coins, or one of the user's pairs.
struct HomeRow: Equatable, Sendable {
  /// Where the row comes from, which is also the section it is listed in.
  enum Kind: Equatable, Sendable {
    /// One of the top N coins by market cap (`rates ui --limit N`, 100 by default).
    case top
    /// A coin the user added (`coins.json`).
    case coin
    /// A pair the user configured (`pairs.json`).
    case pair
    /// A starred coin that is none of the above: shown only on the favorites screen.
    case favorite
    /// The ledger's portfolio (the Portfolio section, ``HomePortfolio/row``): never a list
    /// row; its detail charts the total value per day.
    case portfolio
  }

  /// The section the row is listed in.
  var kind: Kind
  /// What the row stands for: a CoinGecko id for coins, the pair's name (`GBP-USD`) for pairs.
  var id: String
  /// `BTC`, or `GBP/USD` for a pair.
  var symbol: String
  /// `Bitcoin`; a pair's name for a pair. Sanitized by the loader.
  var name: String
  /// Quote currency of ``rate``.
  var currency: String
  /// The latest price or rate; `nil` when the provider had none.
  var rate: Double?
  /// The change over ``changePeriod``, in percent.
  var changePercent: Double?
  /// `24h` for coins, the working day for ECB pairs.
  var changePeriod: ChangePeriod
  /// The last 7 days, oldest first, ending with ``rate``.
  var week: [Double]
  /// When the provider last updated the rate, when it says.
  var updatedAt: Date?
  /// The market figures of a coin row (``HomeMarketFigures``); empty for a pair.
  var market = HomeMarketFigures()
  /// ``RateSource/ledger`` for a street-rate pair (``ConfiguredPair/isStreet``), which the list
  /// labels as the ledger's; nil otherwise.
  var source: RateSource?
}

/// A coin row's market figures, the market table's columns beyond price and 24-hour change;
/// each `nil` when the provider did not say.
struct HomeMarketFigures: Equatable, Sendable {
  /// The rank by market cap.
  var rank: Int?
  /// The change over the last hour, in percent.
  var change1h: Double?
  /// The change over the last 7 days, in percent.
  var change7d: Double?
  /// The market cap, in the row's currency.
  var marketCap: Double?
  /// The volume of the last 24 hours, in the row's currency.
  var volume: Double?
}

/// The rows of the home list in one currency, as one load delivered them.
struct HomeBoard: Equatable, Sendable {
  /// The quote currency of the coin rows.
  var currency: String
  /// Top coins, then the user's coins, then the user's pairs, then starred coins not
  /// among them (for the favorites screen).
  var rows: [HomeRow]
  /// When the data was fetched (the cache's time for cached data).
  var fetchedAt: Date
  /// Whether this is cached data standing in for a fresh answer.
  var stale: Bool
  /// What the answer lacked, as names the user knows (`KAS/USD`).
  var missing: [String] = []
  /// The fallback sources that answered, each with the source it stood in for, as the status
  /// line names them (`Coinbase Exchange (CoinGecko unavailable)`); empty when none did.
  var fallbackSources: [String] = []
}

/// What the detail screen shows for one row.
struct HomeDetail: Equatable, Sendable {
  /// The row's ``HomeRow/id``.
  var rowID: String
  /// The quote currency of the figures and the chart.
  var currency: String
  /// The chart's range: 7, 30, 90 or 365.
  var days: Int
  /// Market figures (coins only; `nil` for pairs).
  var market: CoinMarket?
  /// Daily points for the chart, oldest first; the last point follows the live price.
  /// ECB pairs mark carried days (``RatePoint/carried``).
  var series: RateSeries
  /// When the data was fetched (the cache's time for cached data).
  var fetchedAt: Date
  /// Whether cached data stands in for a fresh answer.
  var stale: Bool

}

/// A coin found by the search screen.
struct HomeSearchHit: Equatable, Sendable {
  /// The CoinGecko id.
  var id: String
  /// Upper case.
  var symbol: String
  /// Sanitized.
  var name: String
  /// The coin's rank by market cap, when it has one.
  var marketCapRank: Int?
  /// Whether other coins share this symbol (shown marked, so the user picks by name).
  var sharedSymbol: Bool

}

/// The user's stored lists, as the screen knows them.
struct HomeLists: Equatable, Sendable {
  /// `coins.json`, in order.
  var coins: [FavoriteCoin] = []
  /// `favorites.json` (starred coins).
  var favorites: [FavoriteCoin] = []
  /// `pairs.json`, newest first as shown.
  var pairs: [ConfiguredPair] = []
}

/// What the loader says about the network, shown on the status line, never hidden.
enum HomeStatus: Equatable, Sendable {
  /// Nothing in flight.
  case idle
  /// A request is in flight.
  case loading
  /// The provider asked us to wait (429) or the budget is spent until `until`.
  case rateLimited(until: Date)
  /// Offline or failing: a one-line message (sanitized); cached data stays on screen.
  case failed(String)
}

/// Everything that can happen to the home screen: a key, or data from the loader, or time.
enum HomeEvent: Equatable, Sendable {
  /// A key typed (Ctrl-Z never arrives: the terminal layer suspends).
  case key(TerminalKey)
  /// Rows for the list, cached first, then fresh.
  case board(HomeBoard)
  /// Data for the detail screen.
  case detail(HomeDetail)
  /// Search results for `query`; `remote` when they come from the provider's search.
  case searchResults(query: String, hits: [HomeSearchHit], remote: Bool)
  /// The stored lists, after reading them or after a change.
  case lists(HomeLists)
  /// A change to the lists (`change`, one of the effects that write) is stored.
  case saved(HomeEffect)
  /// A change to the lists (`change`, one of the effects that write) that could not be
  /// stored: `reason` is the command line's one-line message, naming the file.
  case notSaved(HomeEffect, reason: String)
  /// The loader's state.
  case status(HomeStatus)
  /// The ledger's portfolio in the list's currency, after a list load; nil: nothing held.
  case portfolio(HomePortfolio?)
  /// The clock moved (ages on screen, ending the one-frame highlight).
  case tick(Date)
}

/// What the state machine asks the runtime to do; the runtime answers with ``HomeEvent``s.
enum HomeEffect: Equatable, Sendable {
  /// Load the home rows in `currency` (cached first); `refresh` asks the provider now.
  case loadBoard(currency: String, refresh: Bool)
  /// Load the detail of `row` for `days` in `currency` (for ``HomeRow/Kind/portfolio``, the
  /// ledger's total value per day from the stored daily rates).
  case loadDetail(row: HomeRow, currency: String, days: Int)
  /// Filter coins by `query`: the local coin list at once, the provider's search after a pause.
  case search(query: String)
  /// Add a coin to the user's coins (never twice).
  case addCoin(HomeSearchHit)
  /// Remove a coin from the user's coins.
  case removeCoin(id: String)
  /// Put a removed coin back where it was (undo).
  case restoreCoin(FavoriteCoin, at: Int)
  /// Add a pair at the top of the user's pairs.
  case addPair(base: String, quote: String)
  /// Remove a pair.
  case removePair(name: String)
  /// Put a removed pair back where it was (undo).
  case restorePair(ConfiguredPair, at: Int)
  /// Star (`true`) or unstar a coin.
  case setFavorite(id: String, symbol: String, name: String, starred: Bool)
  /// Remember the list's sort in the config file (a failure is a status line).
  case saveSort(HomeSort)
  /// Leave the screen.
  case exit(HomeExit)
}

/// How the home screen ended.
enum HomeExit: Equatable, Sendable {
  /// `q` or Esc on the home list.
  case quit
  /// Ctrl-C.
  case interrupted
}

/// The screens, stacked: `q`/Esc goes back one, and quits from ``home``.
enum HomeScreen: Equatable, Sendable {
  /// The list of top coins, your coins and your pairs.
  case home
  /// One row's detail.
  case detail
  /// The starred coins.
  case favorites
  /// `/`: search and add coins.
  case search
  /// `p`: the first currency of a new pair.
  case pickBase
  /// The second currency, `base` chosen.
  case pickQuote(base: String)
  /// `?`: the keys.
  case help
}
