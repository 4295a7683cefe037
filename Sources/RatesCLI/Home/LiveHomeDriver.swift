import RateCore

/// The home screen's driver: loads through ``RateDesk`` (cache first, then the providers) and
/// changes the user's lists through ``UserData``. Every failure becomes a status line in the
/// app's words (``ErrorReport``), with the API key redacted; a rate limit becomes a pause.
struct LiveHomeDriver: HomeDriver {
  /// The desk, in the normal cache mode (each load picks its own mode from it through
  /// ``desk(_:)``), or offline for good (`--offline`).
  let desk: RateDesk
  let userData: UserData
  /// The user's key setup, so messages about the key fit it.
  let keySetup: KeySetup?
  /// Takes the API key out of every status line.
  let redaction: Redaction
  /// Waits (the search pause and budget); real in production, the test clock in tests.
  let sleep: @Sendable (Duration) async throws -> Void
  /// What the driver remembers between effects: coins seen, the search budget, a rate-limit pause.
  let memory = HomeDriverMemory()
  /// How many top coins the list shows (`rates ui --limit`).
  var topCount = RateDesk.boardTopCount
  /// The config file the list's sort is remembered in (``HomeSort``); `nil`: not remembered.
  var config: DataFile<[String: String]>?

  /// How long a rate limit pauses loads when the provider does not say (`Retry-After`).
  static let defaultRateLimitPause: TimeInterval = 60

  /// Creates a driver.
  init(
    desk: RateDesk, userData: UserData, keySetup: KeySetup?, redaction: Redaction,
    sleep: @escaping @Sendable (Duration) async throws -> Void
  ) {
    self.desk = desk.configuration.mode == .offline ? desk : desk.with(mode: .normal)
    self.userData = userData
    self.keySetup = keySetup
    self.redaction = redaction
    self.sleep = sleep
  }

  /// The user's coins, favorites and pairs (newest first, as lists show them).
  func lists() throws -> HomeLists {
    HomeLists(
      coins: try userData.readCoins(), favorites: try userData.favorites.read(),
      pairs: Array(try userData.pairs.read().reversed()))
  }

  func perform(_ effect: HomeEffect, send: @escaping @Sendable (HomeEvent) -> Void) async {
    switch effect {
    case .loadBoard(let currency, let refresh):
      await loadBoard(currency: currency, refresh: refresh, send: send)
    case .loadDetail(let row, let currency, let days):
      await loadDetail(row: row, currency: currency, days: days, send: send)
    case .search(let query):
      await search(query, send: send)
    case .saveSort(let sort):
      save(sort, send: send)
    case .addCoin, .removeCoin, .restoreCoin, .addPair, .removePair, .restorePair, .setFavorite:
      await change(effect, send: send)
    case .exit:
      break
    }
  }

  /// The desk in `mode`, unless the driver is offline for good.
  func desk(_ mode: CacheMode) -> RateDesk {
    desk.configuration.mode == .offline ? desk : desk.with(mode: mode)
  }

  // MARK: - Status

  /// The status after work that ended with `failures`: idle, a rate-limit pause (CoinGecko's
  /// `Retry-After`, else ``defaultRateLimitPause``), or the first failure's line. Only
  /// CoinGecko's limit pauses the screen (its status line names CoinGecko); another
  /// provider's is a failure line of its own.
  func status(for failures: [any Error]) async -> HomeStatus {
    let relevant = failures.filter { !Self.isCancellation($0) }
    for case .rateLimited(let provider, let retryAfter) in relevant.compactMap({ ($0 as? ProviderError)?.decisive })
    where provider == .provider(.coinGecko) {
      let until = desk.now().addingTimeInterval(
        retryAfter.map(TimeInterval.init) ?? Self.defaultRateLimitPause)
      await memory.pause(until: until)
      return .rateLimited(until: until)
    }
    guard let first = relevant.first else { return .idle }
    return .failed(line(for: first))
  }

  /// The one-line message for `error`, as the command line words it, without the API key.
  func line(for error: any Error) -> String {
    let message = ErrorReport(error, keySetup: keySetup).message
    return redaction.apply(TerminalText.sanitize(message.replacing("\n", with: " ")))
  }

  /// Whether `error` only says the work was cancelled (a newer effect replaced it).
  static func isCancellation(_ error: any Error) -> Bool {
    if error is CancellationError { return true }
    if case .network(_, .cancelled)? = error as? ProviderError { return true }
    if case .cancelled? = error as? HTTPError { return true }
    return false
  }
}

/// What a ``LiveHomeDriver`` keeps between effects.
actor HomeDriverMemory {
  /// Coins the last boards showed, for the local search.
  private(set) var seenCoins: [CoinGeckoClient.SearchResult] = []
  /// When the next remote search may start.
  private var nextSearch: Date?
  /// Until when the provider asked us to wait.
  private(set) var pausedUntil: Date?

  /// The least time between two remote searches.
  static let searchSpacing: TimeInterval = 2

  /// Remembers the coins of a board.
  func saw(_ coins: [CoinMarket]) {
    let fresh = coins.map {
      CoinGeckoClient.SearchResult(
        id: $0.id, symbol: $0.symbol, name: $0.name, marketCapRank: $0.marketCapRank)
    }
    let ids = Set(fresh.map(\.id))
    seenCoins = fresh + seenCoins.filter { !ids.contains($0.id) }
  }

  /// Takes the remote search slot when it is free at `now` and returns 0; otherwise returns
  /// how long until it is, taking nothing (a search cancelled while it waits holds no turn).
  func takeSearchSlot(at now: Date) -> TimeInterval {
    // Within a millisecond counts as free: sleeps are whole milliseconds.
    if let next = nextSearch, next.timeIntervalSince(now) > 0.001 { return next.timeIntervalSince(now) }
    nextSearch = now.addingTimeInterval(Self.searchSpacing)
    return 0
  }

  /// Pauses remote searches until `date` (a rate limit).
  func pause(until date: Date) {
    pausedUntil = max(date, pausedUntil ?? date)
  }
}

extension Invocation {
  /// The home screen's driver: the user's files and providers, requests without hidden
  /// waits (a rate limit is shown as a pause at once, never slept through), statuses with
  /// the API key redacted and notices kept off the screen.
  func homeDriver() -> LiveHomeDriver {
    let transport = context.makeTransport(settings.timeoutSeconds)
      .retrying(RetryPolicy(maxRetryAfter: .zero), sleep: context.sleep)
    let desk = RateDesk(
      configuration: Self.deskConfiguration(settings, mode: options.offline ? .offline : .normal),
      transport: { _ in transport },
      now: context.now, notify: { _ in })
    return LiveHomeDriver(
      desk: desk, userData: UserData(directory: settings.paths.data), keySetup: keySetup,
      redaction: homeRedaction, sleep: context.sleep)
  }

  /// The keys of the environment and the one in use (which may come from the config file).
  private var homeRedaction: Redaction {
    var secrets = context.secrets(config: nil).secrets
    switch settings.coinGeckoKey {
    case .demo(let key)?, .pro(let key)?: secrets.append(key)
    case nil: break
    }
    return Redaction(secrets: secrets)
  }
}
