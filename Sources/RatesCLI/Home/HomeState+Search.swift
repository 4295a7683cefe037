import RateCore

/// The search screen: the query typed so far and what it found.
struct SearchState: Equatable, Sendable {
  /// The longest query kept (more is ignored).
  static let maximumQueryLength = 40

  /// The text typed.
  var query = ""
  /// The results for ``query``.
  var hits: [HomeSearchHit] = []
  /// The selected hit.
  var cursor = 0
  /// Whether the local answer for ``query`` came.
  var localAnswered = false
  /// Whether the provider's answer for ``query`` came (a later local one is then dropped).
  var remoteAnswered = false
  /// The answer to the last Enter, shown on the status line.
  var message: String?
  /// Enter came before any answer for ``query`` (typed or pasted fast): it acts on the
  /// answer when it comes, never on hits left from an older query.
  var enterPending = false

  /// Whether the provider's answer for a non-empty query is still to come after the local one.
  var searchingRemote: Bool { !query.isEmpty && localAnswered && !remoteAnswered }
}

extension HomeState {
  /// Opens the search screen, empty (`/` on the list).
  mutating func openSearch() -> [HomeEffect] {
    search = SearchState()
    screens.append(.search)
    return []
  }

  mutating func handleSearchKey(_ key: TerminalKey) -> [HomeEffect] {
    switch key {
    case .escape:
      search = SearchState()
      return back()
    case .character(let character):
      guard search.query.count < SearchState.maximumQueryLength else { return [] }
      return retype(search.query + String(character))
    case .backspace:
      guard !search.query.isEmpty else { return [] }
      return retype(String(search.query.dropLast()))
    case .up, .down:
      search.message = nil
      let step = key == .up ? -1 : 1
      search.cursor = min(max(0, search.cursor + step), max(0, search.hits.count - 1))
      return []
    case .enter: return addSelectedHit()
    default: return []
    }
  }

  /// A changed query: asked for at once (the driver answers locally, then from the
  /// provider after a pause); the hits shown stay until its answer comes.
  private mutating func retype(_ query: String) -> [HomeEffect] {
    search.query = query
    search.localAnswered = false
    search.remoteAnswered = false
    search.message = nil
    search.enterPending = false
    if query.isEmpty {
      search.hits = []
      search.cursor = 0
    }
    return [.search(query: query)]
  }

  /// Enter: adds the selected coin to the user's coins (shown at once; the driver stores
  /// it) and stays on the screen to add more; a coin already there is only named. A query
  /// that is a currency code means the currency (``CurrencyCode/isCurrency``): a coin
  /// with that symbol is added by typing its id, as on the command line.
  private mutating func addSelectedHit() -> [HomeEffect] {
    if !search.query.isEmpty && !search.localAnswered && !search.remoteAnswered {
      search.enterPending = true
      return []
    }
    guard search.hits.indices.contains(search.cursor) else { return [] }
    let hit = search.hits[search.cursor]
    let name = TerminalText.sanitize(hit.name)
    let typed = search.query.trimming(.whitespaces)
    if CurrencyCode(typed).isCurrency, hit.id != typed.lowercased() {
      search.message =
        "\(CurrencyCode(typed)) is a currency, not a coin: type the coin's id"
        + " (\(TerminalText.sanitize(hit.id))) to add it"
      return []
    }
    if lists.coins.contains(where: { $0.id == hit.id }) {
      search.message = "\(name) is already in your coins"
      return []
    }
    lists.coins.append(FavoriteCoin(id: hit.id, symbol: hit.symbol, name: hit.name, addedAt: now))
    let coin = "\(name) (\(TerminalText.sanitize(hit.symbol)))"
    // Said on the search's own line: "Adding …" until the driver stored it.
    announce(.addCoin(hit), doing: "Adding \(coin) to your coins", done: "Added \(coin) to your coins")
    search.message = notice
    notice = nil
    return [.addCoin(hit)]
  }

  mutating func apply(searchResults hits: [HomeSearchHit], for query: String, remote: Bool) -> [HomeEffect] {
    // An answer to an older query, or a local one after the provider's, is dropped.
    guard query == search.query, remote || !search.remoteAnswered else { return [] }
    let selected = search.hits.indices.contains(search.cursor) ? search.hits[search.cursor].id : nil
    search.hits = hits
    search.cursor = hits.firstIndex { $0.id == selected } ?? 0
    if remote { search.remoteAnswered = true } else { search.localAnswered = true }
    guard search.enterPending else { return [] }
    // Typed, then Enter: the best match of what was typed.
    search.enterPending = false
    search.cursor = 0
    return addSelectedHit()
  }
}
