import RateCore

// Changes to the user's coins, favorites and pairs.
extension LiveHomeDriver {
  /// Carries out a list change, sends ``HomeEvent/saved(_:)`` once it is stored, then the
  /// lists as stored. A change that could not be stored, or was refused, is sent back as ``HomeEvent/notSaved(_:reason:)`` first (the
  /// command line's message, naming the file), so the screen takes it back and says why.
  /// Sends no status: the status line belongs to the loads.
  func change(_ effect: HomeEffect, send: @escaping @Sendable (HomeEvent) -> Void) async {
    do {
      if let refusal = try await apply(effect) {
        send(.notSaved(effect, reason: TerminalText.sanitize(refusal)))
      } else {
        send(.saved(effect))
      }
    } catch {
      send(.notSaved(effect, reason: line(for: error)))
    }
    do {
      send(.lists(try lists()))
    } catch {
      send(.status(await status(for: [error])))
    }
  }

  /// Applies `effect` to the files; returns why it was refused, if it was.
  private func apply(_ effect: HomeEffect) async throws -> String? {
    let now = desk.now()
    switch effect {
    case .addCoin(let hit):
      try userData.addCoins([FavoriteCoin(id: hit.id, symbol: hit.symbol, name: hit.name, addedAt: now)])
    case .removeCoin(let id):
      _ = try userData.removeCoin(id: id)
    case .restoreCoin(let coin, let index):
      try userData.restoreCoin(coin, at: index)
    case .addPair(let base, let quote):
      return try await addPair(base: base, quote: quote, at: now)
    case .removePair(let name):
      _ = try userData.removePair(named: name)
    case .restorePair(let pair, let index):
      try userData.restorePair(pair, at: index)
    case .setFavorite(let id, let symbol, let name, let starred):
      try userData.setFavorite(
        FavoriteCoin(id: id, symbol: symbol, name: name, addedAt: now), starred: starred)
    case .loadBoard, .loadDetail, .search, .saveSort, .exit:
      break
    }
    return nil
  }

  /// Adds the pair at the top after the checks `rates pairs add` makes; a pair already there
  /// (either order) is refused.
  private func addPair(base: String, quote: String, at now: Date) async throws -> String? {
    try PairArguments.validate(base: base, quote: quote)
    let pair = try await PairsCommand.checked(
      base: base, quote: quote, desk: desk, addedAt: now, ledger: { try userData.ledger.read().entries })
    guard try userData.addPairAtTop(pair) else {
      return "\(pair.base) and \(pair.quote) are already paired"
    }
    return nil
  }
}

// The list's sort, remembered in the config file.
extension LiveHomeDriver {
  /// Writes `sort` to the config file (``HomeSort/configKey``); a failure is a status line
  /// that names the file and says the sort holds for this session only.
  func save(_ sort: HomeSort, send: @escaping @Sendable (HomeEvent) -> Void) {
    guard let config else { return }
    do {
      try config.update { settings in settings[HomeSort.configKey] = sort.stored }
    } catch {
      send(.status(.failed(Self.sortNotSaved(config.url.path, line(for: error)))))
    }
  }

  /// The status line of a sort that could not be saved.
  static func sortNotSaved(_ path: String, _ reason: String) -> String {
    "Sort not saved (this session only): could not write \(TerminalText.sanitize(path)): \(reason)"
  }

  /// The sort remembered in `config`, or the standard one when none (or none readable) is.
  static func rememberedSort(in config: DataFile<[String: String]>) -> HomeSort {
    let stored = (try? config.read())?[HomeSort.configKey]
    return stored.flatMap(HomeSort.init(stored:)) ?? .standard
  }
}
