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
  struct Declared: Declarations {
    let subjects = Argument.repeating(
      "COIN|PAIR",
      help: "coin symbols or CoinGecko ids, priced in each --in currency, or pairs such as "
        + "GBP-USD, EUR-AUD or EUR/BTC (default: your coins and pairs)",
      isOptional: true, completion: .local([.coins, .pairs, .currencies]))
    let currencies = Option.currencies(
      help: "currencies for the coins (default: RATES_CURRENCY or USD)")
    let every = Option.option(
      "--every", value: "DURATION",
      help: "time between updates: 30s, 2m, 1h or seconds (default 60s); never below the "
        + "rate-limit floor (below)",
      expected: "a duration such as 30s, 2m, 1h or 90 (seconds)", parse: WatchInterval.parse)
    let alert = Option.repeated(
      "--alert", value: "EXPR",
      help: "alert when a price crosses a threshold: 'BTC>100000', 'GBP-USD<1.25' (also >= and "
        + "<=); a coin alone means its price in the first --in currency. Repeatable. Reported "
        + "once per crossing: the bell rings and the row is highlighted on a terminal; "
        + "\"alert\" in plain lines and JSON.")
    let exitOnAlert = Option.flag(
      "--exit-on-alert", help: "stop when an alert triggers, with exit code 3")
    let count = Option.option(
      "--count", value: "N", help: "stop after N updates (scripts and tests)",
      expected: "a whole number of updates, at least 1", parse: { Int($0).flatMap { $0 >= 1 ? $0 : nil } })
  }
  static let requirements = [OptionRule(OptionUse(declared.exitOnAlert), needs: [OptionUse(declared.alert)])]
  static let discussion = """
    On a terminal, a board redrawn in place: price, change since the previous update and
    over 24 hours (ECB rates: since the previous working day), the 7-day trend drawn
    as rates pairs draws it (its last point the latest price), and a status line with the next update, the last error
    and the requests made in the last minute. The first frame comes from the cache at
    once. Ctrl-C ends it (exit 130; SIGTERM 143). Otherwise one line per pair and update,
    or with --json one JSON object per pair and update (NDJSON), shaped as docs/json.md
    says: version (2), base, quote, rate, changePercent with changePeriod (24h or 1d),
    source, fetchedAt, updatedAt, stale, old, and alert when one triggered.

    Each update costs one CoinGecko request for all coins; ECB rates are fetched at most
    once an hour; a street rate (a pair no provider serves, such as USD-LBP) comes from your
    ledger without a request. Rate limits, server errors and timeouts never end the watch: the last
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

  /// One requested pair: as typed, or one of your coins with its known asset.
  struct Request: Sendable, Equatable {
    var base: String
    var quote: String
    var asset: Asset?
    /// A street-rate pair (``ConfiguredPair/isStreet``): priced by the ledger.
    var street = false
  }

  let arguments: [String]
  let currencies: [String]
  let every: Int?
  let alerts: [AlertRule]
  let exitOnAlert: Bool
  let count: Int?

  init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
    currencies = try CurrencyList.parse(
      try scanner.read(Self.declared.currencies), default: defaults.currency)
    every = try scanner.read(Self.declared.every)
    var rules: [AlertRule] = []
    for expression in try scanner.read(Self.declared.alert) {
      rules.append(try AlertRule.parse(expression))
    }
    alerts = rules
    exitOnAlert = try scanner.read(Self.declared.exitOnAlert)
    count = try scanner.read(Self.declared.count)
    arguments = try scanner.read(Self.declared.subjects)
    for argument in arguments { _ = try PairArguments.pairs(argument, in: currencies) }
  }

  /// The pairs to watch: the arguments, else your coins and pairs, plus the
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
      for coin in try data.readCoins() {
        for currency in currencies {
          add(Request(base: coin.asset.routingName, quote: currency, asset: coin.asset))
        }
      }
      for pair in try data.pairs.read() {
        add(Request(base: pair.base, quote: CurrencyCode(pair.quote).text, asset: nil, street: pair.isStreet))
      }
    } else {
      for argument in arguments {
        for pair in try PairArguments.pairs(argument, in: currencies) {
          add(Request(base: pair.base, quote: pair.quote, asset: nil))
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
      throw UsageError.invalid(
        "rates watch needs the network: drop --offline"
          + " (rates current --offline shows cached prices)")
    }
    let requests = try requests(invocation)
    guard !requests.isEmpty else { throw NothingToWatch() }
    let schedule = try schedule(invocation)
    let meter = RequestMeter()
    let plan = try await WatchPlan.make(requests: requests, invocation: invocation, meter: meter)
    let form = invocation.streamForm(board: true)
    let board = form == .board
    let engine = WatchEngine(
      feeds: plan.feeds, targets: plan.requestTargets.map(\.target), alerts: alertTargets(plan),
      interval: schedule.interval, budgetPerMinute: schedule.budgetPerMinute, count: count,
      exitOnAlert: exitOnAlert, redrawEvery: board ? 1 : nil, now: invocation.context.now,
      sleep: invocation.context.sleep, meter: meter, keySetup: invocation.keySetup)
    let runner = WatchRunner(
      engine: engine,
      // Keys (q, Esc, Ctrl-C, Ctrl-Z) only with a terminal on both ends: a
      // pipe's reader may want the terminal for itself.
      terminal: .init(fullScreen: board, keys: invocation.terminal.isTTY ? .ifTerminal : .none),
      write: invocation.context.writeOut, makeOutput: output(invocation, form: form),
      outputClosed: { [context = invocation.context] in context.output.outputClosed })
    return try await runner.run()
  }
}

// MARK: - Running

extension WatchCommand {
  /// No coins or pairs to watch: exit 66 (no data), with what to do.
  struct NothingToWatch: Error, LocalizedError {
    var errorDescription: String? {
      "nothing to watch: name coins or pairs (rates watch BTC GBP-USD), or add coins"
        + " (rates coins add BTC) or pairs (rates pairs add GBP USD)"
    }
  }

  /// The seconds between updates, raised to the floor with a note, and the request budget.
  func schedule(_ invocation: Invocation) throws -> (interval: Int, budgetPerMinute: Int) {
    let floor = try WatchInterval.floor(environment: invocation.context.environment)
    let interval = every ?? WatchInterval.defaultSeconds
    guard interval < floor.seconds else { return (interval, floor.requestsPerMinute) }
    let given = WatchInterval.describe(interval)
    let lowest = WatchInterval.describe(floor.seconds)
    invocation.err(
      "note: --every \(given) is below the floor of \(lowest) set by \(floor.reason);"
        + " updating every \(lowest)")
    return (floor.seconds, floor.requestsPerMinute)
  }

  /// Each `--alert` with the items it watches.
  func alertTargets(_ plan: WatchPlan) -> [WatchEngine.Alert] {
    alerts.map { rule in
      let quote = rule.quote ?? currencies[0]
      let matching = plan.requestTargets.enumerated().compactMap { index, entry -> Int? in
        entry.request.base.lowercased() == rule.base.lowercased() && entry.request.quote == quote
          || CurrencyCode(entry.target.base) == CurrencyCode(rule.base) && entry.target.quote == quote
          ? index : nil
      }
      return WatchEngine.Alert(rule: rule, targets: matching)
    }
  }

  /// The board on a terminal (without `--json`), else plain lines or NDJSON.
  func output(_ invocation: Invocation, form: StreamForm) -> @Sendable (TerminalScreen) -> WatchOutput {
    let context = invocation.context
    let options = invocation.options
    let style = invocation.style
    let ascii = !invocation.terminal.unicode
    return { screen in
      let shown: WatchOutput.Form
      switch form {
      case .board:
        shown = .board(
          WatchBoard(
            screen: screen, width: { context.terminal(options.noColor, options.ascii).width },
            style: style, ascii: ascii))
      case .json: shown = .json
      case .lines: shown = .lines(ascii: ascii)
      }
      return WatchOutput(form: shown, writeOut: context.writeOut, writeErr: context.writeErr)
    }
  }
}
