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
        // The reader went away (a closed pipe): nobody is watching.
        if context.output.outputClosed { withUnsafeCurrentTask { $0?.cancel() } }
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
    case .failure where context.output.outputClosed: return .success
    case .failure(let error): throw error
    }
  }
}
