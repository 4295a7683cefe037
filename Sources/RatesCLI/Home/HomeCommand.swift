import RateCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `rates ui`, and bare `rates` on a terminal: the interactive home screen.
///
/// A ``TerminalSession`` (raw mode, the alternate screen, mouse reports, keys and signals)
/// runs the ``HomeSession`` loop over a ``HomeDriver``. Ctrl-C ends it with 130, `SIGTERM`,
/// `SIGHUP` and `SIGQUIT` with 128 + the signal, Ctrl-Z suspends it and `fg` redraws it;
/// the terminal is restored on every way out, a thrown error included.
struct HomeCommand: RatesCommand {
  static let name = "ui"
  static let abstract = "the interactive home screen, also bare 'rates' on a terminal"
  struct Declared: Declarations {
    let currencies = Option.currencies(
      help: "currencies 'c' cycles through (default: RATES_CURRENCY, then USD and EUR)")
    let limit = Option.integer(
      "--limit", value: "N", in: 1...1000, default: RateDesk.boardTopCount
    ) { "how many top coins the list shows, \($0.rangeAndDefault))" }
  }
  static let noJSON: String? = "the home screen is interactive; use 'rates top --json'"
  static let discussion = """
    Needs a terminal on stdin and stdout (exit 64 otherwise). Bare 'rates' on a terminal
    opens it too. A market table: your coins (rates coins), your pairs (rates pairs), then
    the top 100 coins by market cap (--limit), with rank, price, 1h/24h/7d change, market
    cap, volume and a 7-day sparkline as the width allows (empty columns go first, then a
    long name is shortened, then they drop in the order: sparkline, volume, 1h, market cap,
    7d, rank, name; the sorted column stays to the last); cached data shows at once with its
    age while fresh data loads, and the list refreshes every minute within the provider's
    rate limit.

    Keys (? shows them): up/down or k/j, PageUp/PageDown (a page), Home/End or g/G move, and
    a mouse click selects a row; # S N P H D W M V sort by the column # (rank), Coin, Name,
    Price, 1h, 24h, 7d, Market cap, Volume (again: reverse; remembered in the config file); Enter opens
    a row's detail (left/right or h/l move the chart's cursor, or click the chart; 1 2 3 4
    for 7, 30, 90, 365 days; f stars the coin); c switches currency; r refreshes; / searches
    and Enter adds a coin; p adds a pair; d or Delete removes your coin or pair and u undoes
    the removals one by one, latest first; f stars; Tab shows the favorites; q or Esc goes
    back, then quits; Ctrl-C quits (exit 130); Ctrl-Z suspends, and fg redraws. A change that
    cannot be written is taken back and the status line says why. 'rates' with only global
    options opens it too.
    """
  static let examples = [
    "rates ui",
    "rates ui --in EUR,USD,GBP",
    "rates ui --limit 250",
  ]

  let currencies: [String]
  /// How many top coins the list shows.
  let limit: Int

  init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
    let given = try scanner.read(Self.declared.currencies)
    currencies = try Self.currencyList(given: given, default: defaults.currency)
    limit = try scanner.read(Self.declared.limit)
  }

  /// The currencies `--in` names, else the default currency followed by USD and EUR.
  static func currencyList(given: [String], default fallback: String) throws(UsageError) -> [String] {
    let parsed = try CurrencyList.parse(given, default: fallback)
    guard given.isEmpty else { return parsed }
    return parsed + ["USD", "EUR"].filter { !parsed.contains($0) }
  }

  /// Whether standard input and standard output are both terminals.
  static func isInteractive(_ context: CommandContext) -> Bool {
    context.inputIsTerminal && context.terminal(false, false).isTTY
  }

  static let needsTerminal =
    "error: rates ui needs a terminal on stdin and stdout: run it in one"
    + " (in scripts: rates top, rates current or rates watch)"

  func run(_ invocation: Invocation) async throws -> ExitCode {
    guard Self.isInteractive(invocation.context) else {
      invocation.err(Self.needsTerminal)
      return .usage
    }
    try CurrencyList.requireCoinGeckoQuotes(currencies)
    let config = ConfigFile.file(invocation.settings.paths)
    let driver = Self.makeDriver(invocation, top: limit, config: config)
    var state = HomeState(
      currencies: currencies, lists: try driver.lists(),
      pickerCurrencies: FiatCurrencies.ecb.keys.sorted(), now: invocation.context.now())
    state.sort = LiveHomeDriver.rememberedSort(in: config)
    state.refreshAtStart = invocation.options.refresh
    do {
      return try await Self.runScreen(state, driver: driver, invocation: invocation)
    } catch is RawMode.Failure {
      invocation.err(Self.needsTerminal)
      return .usage
    }
  }

  /// `history --interactive`: the detail screen of the home screen alone (live price,
  /// ranges, mouse, cursor, its keys and endings), showing the `days` days `history`
  /// fetched for `base`/`quote`. A coin priced in a fiat currency is a coin's detail (its
  /// market figures load with the ranges); anything else a pair's.
  static func explore(
    base: String, quote: String, result: RateService.HistoryResult, followsToday: Bool,
    invocation: Invocation
  ) async throws -> ExitCode {
    let driver = makeDriver(
      invocation, top: RateDesk.boardTopCount, config: ConfigFile.file(invocation.settings.paths))
    let series = result.series
    let now = invocation.context.now()
    let row = detailRow(base: base, quote: quote, asset: result.asset)
    let data = HomeDetail(
      rowID: row.id, currency: row.currency, days: series.points.count, market: nil,
      series: series, fetchedAt: series.fetchedAt, stale: result.staleness != nil)
    let lists = (try? driver.lists()) ?? HomeLists()
    let state = HomeState(detailOf: row, data: data, lists: lists, now: now, followsLive: followsToday)
    return try await runScreen(state, driver: driver, invocation: invocation)
  }

  /// The row `history --interactive` shows: a coin (by the provider's id) in a fiat
  /// currency, else the pair `BASE-QUOTE`.
  static func detailRow(base: String, quote: String, asset: Asset?) -> HomeRow {
    let (base, quote) = (CurrencyCode(base).text, CurrencyCode(quote).text)
    if !CurrencyCode(base).isFiat, CurrencyCode(quote).isFiat {
      let coin = asset ?? Asset(symbol: base, id: base.lowercased())
      return HomeRow(
        kind: .top, id: coin.id, symbol: coin.symbol, name: coin.symbol, currency: quote, rate: nil,
        changePercent: nil, changePeriod: .hours24, week: [])
    }
    return HomeRow(
      kind: .pair, id: "\(base)-\(quote)", symbol: "\(base)/\(quote)", name: "\(base)-\(quote)",
      currency: quote, rate: nil, changePercent: nil, changePeriod: .workingDay, week: [])
  }

  /// Runs `state` on the process's terminal and turns how it ended into the exit code:
  /// 0 on `q`, Esc or the end of input, 130 on Ctrl-C, 128 + an ending signal. Throws
  /// ``RawMode/Failure`` when there is no terminal to run on.
  static func runScreen(_ state: HomeState, driver: any HomeDriver, invocation: Invocation) async throws -> ExitCode {
    switch try await run(state: state, driver: driver, invocation: invocation) {
    case .quit, .inputClosed: return .success
    case .interrupted: return .interrupted
    case .signal(let number): return ExitCode(endingSignal: number)
    }
  }

  /// Runs the screen on the process's terminal until it ends.
  private static func run(
    state: HomeState, driver: any HomeDriver, invocation: Invocation
  ) async throws -> HomeOutcome {
    let style = invocation.style
    let ascii = !invocation.terminal.unicode
    let fallbackWidth = invocation.terminal.width
    return try await TerminalSession.run(
      .init(fullScreen: true, keys: .required, mouse: true), write: invocation.context.writeOut
    ) { session in
      var home = HomeSession(
        state: state,
        render: { HomeRenderer.render($0, width: $1, height: $2, style: style, ascii: ascii) },
        size: { TerminalScreen.windowSize(of: STDOUT_FILENO) ?? (fallbackWidth, 24) },
        screen: session.screen, driver: driver, now: invocation.context.now,
        trace: Self.tracer(environment: invocation.context.environment))
      return await home.run(events: session.events)
    }
  }

  /// The driver the screen runs on: the one place that names it. It loads the top `top`
  /// coins and remembers the sort in `config`.
  static func makeDriver(
    _ invocation: Invocation, top: Int, config: DataFile<[String: String]>
  ) -> any HomeDriver {
    var driver = invocation.homeDriver()
    driver.topCount = top
    driver.config = config
    return driver
  }

  /// With `RATES_HOME_TRACE` set to a file, appends `key_to_frame_us N` to it for each
  /// frame a key led to (for `scripts/home-bench.sh`); nothing else is written there.
  static func tracer(environment: [String: String]) -> (@Sendable (Duration) -> Void)? {
    guard let path = EnvironmentVariable.homeTrace.raw(in: environment), !path.isEmpty else {
      return nil
    }
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return nil }
    return { latency in
      let micros =
        latency.components.seconds * 1_000_000
        + latency.components.attoseconds / 1_000_000_000_000
      let line = Array("key_to_frame_us \(micros)\n".utf8)
      _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
  }
}
