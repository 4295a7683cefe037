import Foundation
import RateCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `rates watch [COIN|PAIR ...]`: live prices, redrawn in place on a
/// terminal, one line (or JSON object) per pair and update otherwise.
struct WatchCommand: RatesCommand {
  static let name = "watch"
  static let abstract = "live prices and rates, updated every minute (or --every)"
  static let arguments = [
    ArgumentSpec(
      name: "COIN|PAIR",
      help: "coin symbols or CoinGecko ids, priced in each --in currency, or pairs such as "
        + "GBP-USD, EUR-AUD or EUR/BTC (default: your favorites and pairs)",
      isOptional: true, isRepeating: true, completion: .local([.coins, .pairs, .currencies]))
  ]
  static let currencies = OptionSpec.option(
    "--in", value: "LIST", repeatable: true,
    help: "currencies for the coins (default: RATES_CURRENCY or USD)",
    completion: .local([.currencies]))
  static let every = OptionSpec.option(
    "--every", value: "DURATION",
    help: "time between updates: 30s, 2m, 1h or seconds (default 60s); never below the "
      + "rate-limit floor (below)")
  static let alert = OptionSpec.option(
    "--alert", value: "EXPR", repeatable: true,
    help: "alert when a price crosses a threshold: 'BTC>100000', 'GBP-USD<1.25' (also >= and "
      + "<=); a coin alone means its price in the first --in currency. Repeatable. Reported "
      + "once per crossing: the bell rings and the row is highlighted on a terminal; "
      + "\"alert\" in plain lines and JSON.")
  static let exitOnAlert = OptionSpec.flag(
    "--exit-on-alert", help: "stop when an alert triggers, with exit code 3")
  static let count = OptionSpec.option(
    "--count", value: "N", help: "stop after N updates (scripts and tests)")
  static let options = [currencies, every, alert, exitOnAlert, count]
  static let discussion = """
    On a terminal, a board redrawn in place: price, change since the previous update and
    over 24 hours (ECB rates: since the previous working day), a sparkline of recent
    history and the values seen, and a status line with the next update, the last error
    and the requests made in the last minute. The first frame comes from the cache at
    once. Ctrl-C ends it (exit 130; SIGTERM 143). Otherwise one line per pair and update,
    or with --json one JSON object per pair and update (NDJSON): base, quote, rate,
    change24hPercent, source, fetchedAt, stale, and alert when one triggered.

    Each update costs one CoinGecko request for all coins; ECB rates are fetched at most
    once an hour. Rate limits, server errors and timeouts never end the watch: the last
    values stay, marked stale, and the next request waits for Retry-After. The floor:
    15 s without a key, 3 s with COINGECKO_API_KEY, 1 s with COINGECKO_PRO_API_KEY, or
    RATES_WATCH_FLOOR seconds (for tests and mirrors); no provider gets more than
    60 / floor requests in any minute.
    """
  static let examples = [
    "rates watch BTC ETH GBP-USD",
    "rates watch BTC --in EUR --every 30s --alert 'BTC>100000'",
    "rates watch BTC --json --count 1 | jq .rate",
  ]

  /// One requested pair: as typed, or a favorite's known asset.
  struct Request: Sendable, Equatable {
    var base: String
    var quote: String
    var asset: Asset?
  }

  let arguments: [String]
  let currencies: [String]
  let every: Int?
  let alerts: [AlertRule]
  let exitOnAlert: Bool
  let count: Int?

  init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
    currencies = try CurrencyList.parse(
      try scanner.options(Self.currencies), default: defaults.currency)
    every = try scanner.option(
      Self.every, expected: "a duration such as 30s, 2m, 1h or 90 (seconds)",
      parse: WatchInterval.parse)
    var rules: [AlertRule] = []
    for expression in try scanner.options(Self.alert) {
      rules.append(try AlertRule.parse(expression))
    }
    alerts = rules
    exitOnAlert = try scanner.flag(Self.exitOnAlert)
    count = try scanner.option(
      Self.count, expected: "a whole number of updates, at least 1",
      parse: { Int($0).flatMap { $0 >= 1 ? $0 : nil } })
    if exitOnAlert && rules.isEmpty {
      throw UsageError.invalid("--exit-on-alert needs at least one --alert")
    }
    arguments = scanner.positionals()
    for argument in arguments {
      if let (base, quote) = PairArguments.split(argument) {
        try PairArguments.validate(base: base, quote: quote)
      } else {
        for currency in currencies { try PairArguments.validate(base: argument, quote: currency) }
      }
    }
  }

  /// The pairs to watch: the arguments, else favorites and pairs, plus the
  /// alerts' pairs; duplicates removed.
  func requests(_ invocation: Invocation) throws -> [Request] {
    var requests: [Request] = []
    func add(_ request: Request) {
      let known = requests.contains {
        $0.base.lowercased() == request.base.lowercased() && $0.quote == request.quote
          || ($0.asset != nil && $0.asset?.id == request.asset?.id && $0.quote == request.quote)
      }
      if !known { requests.append(request) }
    }
    if arguments.isEmpty {
      let data = invocation.userData()
      for favorite in try data.favorites.read() {
        for currency in currencies {
          add(Request(base: favorite.symbol, quote: currency, asset: Asset(symbol: favorite.symbol, id: favorite.id)))
        }
      }
      for pair in try data.pairs.read() {
        add(Request(base: pair.base, quote: pair.quote.uppercased(), asset: nil))
      }
    } else {
      for argument in arguments {
        if let (base, quote) = PairArguments.split(argument) {
          add(Request(base: base, quote: quote.uppercased(), asset: nil))
        } else {
          for currency in currencies { add(Request(base: argument, quote: currency, asset: nil)) }
        }
      }
    }
    for rule in alerts {
      add(Request(base: rule.base, quote: rule.quote ?? currencies[0], asset: nil))
    }
    return requests
  }

  func run(_ invocation: Invocation) async throws -> ExitCode {
    if invocation.options.offline {
      throw UsageError.invalid("rates watch needs the network: drop --offline (rates current --offline shows cached prices)")
    }
    let requests = try requests(invocation)
    guard !requests.isEmpty else {
      let message =
        "nothing to watch: name coins or pairs (rates watch BTC GBP-USD), or add favorites"
        + " (rates favorites add BTC) or pairs (rates pairs add GBP USD)"
      if invocation.options.json {
        invocation.err(
          #"{"error":{"code":"no_data","exitCode":66,"message":"\#(message)"}}"#)
      } else {
        invocation.err("error: \(message)")
      }
      return .noData
    }

    let floor = try WatchInterval.floor(environment: invocation.context.environment)
    var interval = every ?? WatchInterval.defaultSeconds
    if interval < floor.seconds {
      invocation.err(
        "note: --every \(WatchInterval.describe(interval)) is below the floor of \(WatchInterval.describe(floor.seconds)) set by \(floor.reason); updating every \(WatchInterval.describe(floor.seconds))")
      interval = floor.seconds
    }

    let meter = RequestMeter()
    let plan = try await WatchPlan.make(requests: requests, invocation: invocation, meter: meter)
    var alertTargets: [WatchEngine.Alert] = []
    for rule in alerts {
      let quote = rule.quote ?? currencies[0]
      let matching = plan.requestTargets.enumerated().compactMap { index, entry -> Int? in
        entry.request.base.lowercased() == rule.base.lowercased() && entry.request.quote == quote
          || entry.target.base.uppercased() == rule.base.uppercased() && entry.target.quote == quote
          ? index : nil
      }
      alertTargets.append(WatchEngine.Alert(rule: rule, targets: matching))
    }

    let terminal = invocation.terminal
    let board = terminal.isTTY && !invocation.options.json
    let engine = WatchEngine(
      feeds: plan.feeds, targets: plan.requestTargets.map(\.target), alerts: alertTargets,
      interval: interval, budgetPerMinute: floor.requestsPerMinute, count: count,
      exitOnAlert: exitOnAlert, redrawEvery: board ? 1 : nil, now: invocation.context.now,
      sleep: invocation.context.sleep, meter: meter)

    let context = invocation.context
    let options = invocation.options
    let screen = WatchScreen(
      write: context.writeOut,
      width: { context.terminal(options.noColor, options.ascii).width },
      style: invocation.style, ascii: !terminal.unicode)
    let json = options.json
    let ascii = !terminal.unicode

    let flag = SignalFlag()
    // Ends the wait below: the watch finishing, or a signal's grace period
    // running out (a request that ignores cancellation must not keep the
    // process alive).
    let (ended, end) = AsyncStream<Void>.makeStream()
    // SIGHUP (the terminal closed) and SIGQUIT end the watch cleanly too.
    var signals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    if board { signals.append(SIGWINCH) }
    let watcher = WatchSignals(signals) { number in
      Task {
        if number == SIGWINCH {
          await screen.redraw()
        } else {
          await flag.set(number)
          try? await Task.sleep(for: .seconds(2))
          end.yield()
        }
      }
    }
    if board { await screen.enter() }
    let task = Task { () throws -> WatchEngine.Outcome in
      try await engine.run { event, state in
        if board {
          await screen.draw(state, bell: event == .update && !state.newAlerts.isEmpty)
          return
        }
        guard event == .update else { return }
        var text = ""
        for item in state.items {
          if json {
            guard let line = WatchRenderer.JSONLine(item, now: state.now),
              let data = try? JSONCoders.encoder().encode(line)
            else { continue }
            text += String(decoding: data, as: UTF8.self) + "\n"
          } else if let line = WatchRenderer.plainLine(item, at: state.lastUpdate ?? state.now, ascii: ascii) {
            text += line + "\n"
          }
        }
        if !text.isEmpty { context.writeOut(text) }
        if let error = state.lastError, state.lastErrorAt == state.lastUpdate {
          let retry = state.nextUpdate.map {
            "; retrying in \(max(0, Int($0.timeIntervalSince(state.now).rounded(.up)))) s"
          } ?? ""
          context.writeErr("warning: \(error)\(retry) (last values kept, marked stale)\n")
        }
      }
    }

    await flag.attach(task)
    Task {
      _ = await task.result
      end.yield()
    }
    for await _ in ended { break }
    await screen.leave()
    watcher.cancel()

    if let number = await flag.received {
      switch number {
      case SIGTERM: return .terminated
      case SIGHUP: return .hangup
      default: return .interrupted
      }
    }
    switch await task.result {
    case .success(.finished): return .success
    case .success(.alert): return .alert
    case .failure(let error): throw error
    }
  }
}

/// The feeds and targets for a watch: each request routed to its provider,
/// resolved, and given one feed per provider.
struct WatchPlan {
  var feeds: [WatchFeed]
  var requestTargets: [(request: WatchCommand.Request, target: WatchEngine.Target)]

  static func make(
    requests: [WatchCommand.Request], invocation: Invocation, meter: RequestMeter
  ) async throws -> WatchPlan {
    let routes = try requests.map { try invocation.route($0.base, $0.quote) }
    var providers: [String] = []
    for route in routes where !providers.contains(route.provider) { providers.append(route.provider) }
    var sources: [String: PriceSource] = [:]
    for provider in providers {
      sources[provider] = invocation.watchSource(provider: provider, meter: meter)
    }
    var pairsByProvider: [String: [AssetQuote]] = [:]
    var targets: [(WatchCommand.Request, WatchEngine.Target)] = []
    for (request, route) in zip(requests, routes) {
      guard let source = sources[route.provider], let feedIndex = providers.firstIndex(of: route.provider)
      else { continue }
      try source.validateQuote(route.quote)
      let asset: Asset
      if let known = request.asset, !route.inverted, route.provider == Providers.coinGecko {
        asset = known
      } else {
        asset = try await source.resolve(route.base)
      }
      let pair = AssetQuote(asset: asset, quote: route.quote)
      var pairs = pairsByProvider[route.provider, default: []]
      let pairIndex = pairs.firstIndex(of: pair) ?? pairs.count
      if pairIndex == pairs.count { pairs.append(pair) }
      pairsByProvider[route.provider] = pairs
      let shownBase = route.inverted ? route.quote : asset.symbol
      let shownQuote = route.inverted ? asset.symbol : route.quote
      targets.append(
        (request,
         WatchEngine.Target(
          feed: feedIndex, pair: pairIndex, inverted: route.inverted,
          base: shownBase.uppercased() == shownBase ? shownBase : shownBase,
          quote: shownQuote)))
    }
    let feeds = providers.compactMap { provider -> WatchFeed? in
      guard let source = sources[provider] else { return nil }
      let pairs = pairsByProvider[provider, default: []]
      if provider == Providers.frankfurter {
        return WatchFeeds.ecb(pairs: pairs, invocation: invocation, meter: meter)
      }
      let seed: @Sendable (Int) async -> [[Double]]? =
        provider == Providers.coinGecko
        ? WatchFeeds.coinGeckoHistory(pairs: pairs, invocation: invocation, meter: meter)
        : { @Sendable _ in nil }
      return WatchFeeds.prices(
        source: source, pairs: pairs, cache: invocation.cache, now: invocation.context.now,
        warn: { [context = invocation.context] in context.writeErr($0 + "\n") },
        seedHistory: seed)
    }
    return WatchPlan(feeds: feeds, requestTargets: targets)
  }
}

extension Invocation {
  /// The transport for `rates watch`: no hidden retries (the watch keeps its
  /// own schedule), and every request counted in `meter` for `provider`.
  func watchTransport(provider: String, meter: RequestMeter) -> HTTPTransport {
    let base = context.makeTransport(settings.timeoutSeconds).retrying(.none, sleep: context.sleep)
    let now = context.now
    return HTTPTransport { request in
      await meter.record(provider, at: now())
      return try await base.send(request)
    }
  }

  /// A CoinGecko client on the watch transport.
  func watchCoinGeckoClient(meter: RequestMeter) -> CoinGeckoClient {
    CoinGeckoClient(
      baseURL: settings.coinGeckoURL, key: settings.coinGeckoKey,
      transport: watchTransport(provider: Providers.coinGecko, meter: meter))
  }

  /// The price source for `provider` on the watch transport.
  func watchSource(provider: String, meter: RequestMeter) -> PriceSource {
    let now = context.now
    switch provider {
    case Providers.coinDesk:
      return .coinDesk(
        client: CoinDeskClient(
          baseURL: settings.coinDeskURL,
          transport: watchTransport(provider: Providers.coinDesk, meter: meter)),
        now: now)
    case Providers.frankfurter:
      return .frankfurter(
        client: FrankfurterClient(
          baseURL: settings.frankfurterURL,
          transport: watchTransport(provider: Providers.frankfurter, meter: meter)),
        now: now)
    default:
      let client = watchCoinGeckoClient(meter: meter)
      let resolver = CoinResolver(
        client: client, cache: cache, now: now, offline: false,
        note: { [context] in context.writeErr($0 + "\n") })
      return .coinGecko(client: client, resolver: resolver, now: now)
    }
  }
}

/// The feeds `rates watch` builds from the real providers.
enum WatchFeeds {
  /// Prices from `source` through ``RateService`` in refresh mode (always one
  /// request, the cache updated), throwing the provider's own error rather
  /// than falling back to the cache (the board keeps the last values itself).
  static func prices(
    source: PriceSource, pairs: [AssetQuote], cache: JSONFileCache,
    now: @escaping @Sendable () -> Date, warn: @escaping @Sendable (String) -> Void,
    refreshEvery: TimeInterval = 0,
    seedHistory: @escaping @Sendable (Int) async -> [[Double]]? = { _ in nil }
  ) -> WatchFeed {
    let reader = RateService(source: source, cache: cache, mode: .offline, now: now, warn: warn)
    return WatchFeed(
      provider: source.name, pairs: pairs, refreshEvery: refreshEvery,
      cached: {
        let quotes = pairs.map { pair -> Quote? in
          guard var entry = cache.load(Quote.self, key: reader.priceKey(pair.asset, pair.quote)).entry
          else { return nil }
          entry.value.base = pair.asset.symbol
          entry.value.fetchedAt = entry.fetchedAt
          return entry.value
        }
        return WatchFeed.Snapshot(
          quotes: quotes, fetchedAt: quotes.compactMap { $0?.fetchedAt }.min())
      },
      seedHistory: seedHistory,
      fetch: {
        let failure = FailureBox()
        var wrapped = source
        wrapped.prices = { pairs in
          do { return try await source.prices(pairs) } catch {
            await failure.set(error)
            throw error
          }
        }
        let service = RateService(source: wrapped, cache: cache, mode: .refresh, now: now, warn: warn)
        let result = try await service.quotes(for: pairs)
        if result.staleness != nil {
          throw await failure.error
            ?? ProviderError.noData(provider: source.name, detail: "no fresh prices")
        }
        return WatchFeed.Snapshot(quotes: result.quotes, fetchedAt: now())
      })
  }

  /// CoinGecko history: 7 days (one point per 6 hours) from one
  /// `/coins/markets?sparkline=true` per quote currency, cached for a minute.
  static func coinGeckoHistory(pairs: [AssetQuote], invocation: Invocation, meter: RequestMeter)
    -> @Sendable (Int) async -> [[Double]]?
  {
    let service = MarketService(
      client: invocation.watchCoinGeckoClient(meter: meter), cache: invocation.cache, mode: .normal,
      now: invocation.context.now, warn: { [context = invocation.context] in context.writeErr($0 + "\n") })
    return { allowance in
      var currencies: [String] = []
      for pair in pairs where !currencies.contains(pair.quote) { currencies.append(pair.quote) }
      var byPair: [AssetQuote: [Double]] = [:]
      for currency in currencies.prefix(max(allowance, 0)) {
        let ids = pairs.filter { $0.quote == currency }.map(\.asset.id)
        guard let answer = try? await service.markets(currency: currency, ids: ids, sparkline: true)
        else { continue }
        for pair in pairs where pair.quote == currency {
          let hourly = answer.value.first { $0.id == pair.asset.id }?.sparkline7d ?? []
          byPair[pair] = stride(from: 0, to: hourly.count, by: 6).map { hourly[$0] }
        }
      }
      return pairs.map { byPair[$0] ?? [] }
    }
  }

  /// ECB rates: one Frankfurter time series of the last 10 days for every
  /// fiat pair (shared with `rates pairs` in the cache), at most once an hour;
  /// it gives the rate, its change since the previous working day and the history.
  static func ecb(pairs: [AssetQuote], invocation: Invocation, meter: RequestMeter) -> WatchFeed {
    let client = FrankfurterClient(
      baseURL: invocation.settings.frankfurterURL,
      transport: invocation.watchTransport(provider: Providers.frankfurter, meter: meter))
    let keys = pairs.map { CurrencyPairKey(base: $0.asset.id, quote: $0.quote) }
    let name = keys.map(\.description).sorted().joined(separator: ",")
    let key = "frankfurter/week/\(MarketService.keyPart(name))"
    let cache = invocation.cache
    let now = invocation.context.now
    let context = invocation.context
    @Sendable func snapshot(_ series: [CurrencyPairKey: [RatePoint]], fetchedAt: Date)
      -> WatchFeed.Snapshot
    {
      var quotes: [Quote?] = []
      var history: [[Double]] = []
      for (pair, key) in zip(pairs, keys) {
        let points = series[key] ?? []
        history.append(points.map(\.rate))
        guard let last = points.last else {
          quotes.append(nil)
          continue
        }
        let previous = points.dropLast().last
        let change = previous.flatMap { $0.rate == 0 ? nil : (last.rate - $0.rate) / $0.rate * 100 }
        quotes.append(
          Quote(
            base: pair.asset.symbol, quote: pair.quote, rate: last.rate, change24hPercent: change,
            source: Providers.frankfurter, fetchedAt: fetchedAt, updatedAt: last.date.start))
      }
      return WatchFeed.Snapshot(quotes: quotes, history: history, fetchedAt: fetchedAt)
    }
    return WatchFeed(
      provider: Providers.frankfurter, pairs: pairs, refreshEvery: CacheFreshness.referenceRate,
      cached: {
        guard let entry = cache.load([CurrencyPairKey: [RatePoint]].self, key: key).entry else {
          return WatchFeed.Snapshot(quotes: pairs.map { _ in nil }, fetchedAt: nil)
        }
        return snapshot(entry.value, fetchedAt: entry.fetchedAt)
      },
      fetch: {
        let today = Day(containing: now())
        let series = try await client.timeSeries(pairs: keys, start: today.adding(days: -10), end: today)
        let fetchedAt = now()
        do {
          try cache.save(series, key: key, source: Providers.frankfurter, fetchedAt: fetchedAt)
        } catch {
          context.writeErr("warning: could not update the cache: \(error.localizedDescription)\n")
        }
        return snapshot(series, fetchedAt: fetchedAt)
      })
  }
}

/// The error a wrapped source threw, kept for the caller.
actor FailureBox {
  private(set) var error: (any Error)?

  func set(_ error: any Error) { self.error = error }
}
