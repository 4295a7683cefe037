import Foundation
import RateCore

/// What a command declares about itself: its name, help, options, arguments and actions.
///
/// Everything the user sees of a command derives from this one declaration: the parser reads
/// the options through their ``OptionSpec``s, `--help` is generated from it (``CommandHelp``),
/// and so are the completion scripts (``CompletionTable``). A test checks that they agree.
///
/// A command with actions (`rates ledger add`) lists them as `subcommands`, nested types
/// declared in extensions; the dispatcher picks one by the next positional, suggesting the
/// closest name for a typo.
protocol CommandDeclaration: Sendable {
  /// The word that selects the command or action.
  static var name: String { get }
  /// Other words that select it (`rm` for `remove`).
  static var aliases: [String] { get }
  /// A one-line summary for the command list and the top of `--help`.
  static var abstract: String { get }
  /// The positional arguments, in order.
  static var arguments: [ArgumentSpec] { get }
  /// The command's own options (global options are in ``GlobalOptions``).
  static var options: [OptionSpec] { get }
  /// Options shown together on the usage line, such as `[--chart | --table]`.
  static var optionGroups: [OptionGroup] { get }
  /// The actions, for a command that has them.
  static var subcommands: [any CommandDeclaration.Type] { get }
  /// The action run when none is named (`list`), if any.
  static var defaultSubcommand: (any CommandDeclaration.Type)? { get }
  /// Free text for `--help` after the options: how it works, notes.
  static var discussion: String { get }
  /// Whole command lines for `--help`, each starting with `rates`.
  static var examples: [String] { get }
}

extension CommandDeclaration {
  static var aliases: [String] { [] }
  static var arguments: [ArgumentSpec] { [] }
  static var options: [OptionSpec] { [] }
  static var optionGroups: [OptionGroup] { [] }
  static var subcommands: [any CommandDeclaration.Type] { [] }
  static var defaultSubcommand: (any CommandDeclaration.Type)? { nil }
  static var discussion: String { "" }
  static var examples: [String] { [] }

  /// The name and every alias.
  static var names: [String] { [name] + aliases }

  /// Whether `action` is the action run when none is named.
  static func runsByDefault(_ action: any CommandDeclaration.Type) -> Bool {
    defaultSubcommand.map { ObjectIdentifier($0) == ObjectIdentifier(action) } ?? false
  }
}

/// A command that runs: it reads its own options and arguments, then does its work.
protocol RatesCommand: CommandDeclaration {
  /// Reads the command's own options and arguments.
  init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError)

  /// Runs the command and returns its exit code.
  func run(_ invocation: Invocation) async throws -> ExitCode

  /// The `--format` values beyond table and json the command writes.
  static var exportFormats: Set<OutputFormat> { get }
}

extension RatesCommand {
  static var exportFormats: Set<OutputFormat> { [] }
}

/// What `history`, `stats`, `current` and `ledger list` also write.
let priceExportFormats: Set<OutputFormat> = [.csv, .ledger, .beancount]

/// Defaults a command's parsing may depend on.
struct CommandDefaults: Sendable {
  /// The quote currency when none is given.
  var currency: String
}

/// One run of `rates`: the context, the global options and settings, and the
/// helpers every command uses to build its service and print.
struct Invocation: Sendable {
  let context: CommandContext
  let options: GlobalOptions
  let settings: EnvironmentSettings
  let terminal: TerminalCapabilities

  /// Colours, enabled only when the terminal allows.
  var style: Style { Style(enabled: terminal.color && !options.json) }

  /// Prints `text` and a newline on stdout.
  func out(_ text: String) { context.writeOut(text + "\n") }

  /// Prints `text` and a newline on stderr.
  func err(_ text: String) { context.writeErr(text + "\n") }

  /// Writes `series` in an export `--format`; false for table and json.
  func export(_ series: RateSeries) -> Bool {
    switch options.format {
    case .csv?: context.writeOut(PriceExport.csv(series))
    case .ledger?: out(PriceExport.directives(series, journal: .ledger))
    case .beancount?: out(PriceExport.directives(series, journal: .beancount))
    default: return false
    }
    return true
  }

  /// Prints `value` as one JSON document on stdout.
  func printJSON(_ value: some Encodable) throws {
    let data = try JSONCoders.encoder(pretty: true).encode(value)
    out(String(decoding: data, as: UTF8.self))
  }

  /// The network transport with retries.
  func makeTransport() -> HTTPTransport {
    context.makeTransport(settings.timeoutSeconds).retrying(RetryPolicy(), sleep: context.sleep)
  }

  /// The cache.
  var cache: JSONFileCache { JSONFileCache(directory: settings.paths.cache) }

  /// The user's favorites and pairs.
  func userData() -> UserData { UserData(directory: settings.paths.data) }

  /// A CoinGecko client with the user's key.
  func makeCoinGeckoClient() -> CoinGeckoClient {
    CoinGeckoClient(
      baseURL: settings.coinGeckoURL, key: settings.coinGeckoKey, transport: makeTransport())
  }

  /// Resolves coin names through CoinGecko.
  func makeResolver() -> CoinResolver {
    CoinResolver(
      client: makeCoinGeckoClient(), cache: cache, now: context.now, offline: options.offline,
      note: { [context] in context.writeErr($0 + "\n") })
  }

  /// CoinGecko's cached search and market data.
  func makeMarketService() -> MarketService {
    MarketService(
      client: makeCoinGeckoClient(), cache: cache, mode: options.cacheMode, now: context.now,
      warn: { [context] in context.writeErr($0 + "\n") })
  }

  /// A Frankfurter (ECB) client.
  func makeFrankfurterClient() -> FrankfurterClient {
    FrankfurterClient(baseURL: settings.frankfurterURL, transport: makeTransport())
  }

  /// The price source for `provider`.
  func makeSource(provider: String) -> PriceSource {
    let now = context.now
    switch provider {
    case Providers.coinDesk:
      return .coinDesk(
        client: CoinDeskClient(baseURL: settings.coinDeskURL, transport: makeTransport()), now: now)
    case Providers.frankfurter:
      return .frankfurter(client: makeFrankfurterClient(), now: now)
    default:
      return .coinGecko(client: makeCoinGeckoClient(), resolver: makeResolver(), now: now)
    }
  }

  /// The route for a pair, honouring `--provider` and `RATES_PROVIDER`.
  func route(_ base: String, _ quote: String) throws -> PairRoute {
    try PairRouter.route(base: base, quote: quote, forced: settings.forcedProvider)
  }

  /// The rate service for `provider` (default: the coin provider).
  func makeService(provider: String? = nil) -> RateService {
    RateService(
      source: makeSource(provider: provider ?? settings.provider), cache: cache,
      mode: options.cacheMode, now: context.now,
      warn: { [context] in context.writeErr($0 + "\n") })
  }

  /// A current quote for a route, as asked (inverted back for a fiat/coin
  /// pair), with its own provider's staleness.
  struct RoutedQuote: Sendable {
    var quote: Quote
    var staleness: Staleness?
  }

  /// Current quotes for `routes`, in their order: one call per provider,
  /// concurrently, each batching all of its routes.
  func quotes(for routes: [PairRoute]) async throws -> [RoutedQuote?] {
    let providers = Array(Set(routes.map(\.provider))).sorted()
    let answers = try await withThrowingTaskGroup(of: (String, RateService.QuotesResult).self) {
      group in
      for provider in providers {
        let mine = routes.filter { $0.provider == provider }
        group.addTask {
          let source = makeSource(provider: provider)
          var pairs: [AssetQuote] = []
          for route in mine {
            try source.validateQuote(route.quote)
            pairs.append(AssetQuote(asset: try await source.resolve(route.base), quote: route.quote))
          }
          return (provider, try await makeService(provider: provider).quotes(for: pairs))
        }
      }
      var results: [String: RateService.QuotesResult] = [:]
      for try await (provider, result) in group { results[provider] = result }
      return results
    }
    var next: [String: Int] = [:]
    return routes.map { route in
      let index = next[route.provider, default: 0]
      next[route.provider] = index + 1
      guard let answer = answers[route.provider], let quote = answer.quotes.dropFirst(index).first
      else { return nil }
      return RoutedQuote(
        quote: route.inverted ? quote.inverted() : quote, staleness: answer.staleness)
    }
  }

  /// The last `days` days of `base` in `quote`, from the provider the pair
  /// routes to (inverted for a fiat/coin pair).
  func series(base: String, quote: String, days: Int) async throws -> RateService.HistoryResult {
    let route = try route(base, quote)
    var result = try await makeService(provider: route.provider).history(
      of: route.base, in: route.quote, days: days)
    if route.inverted { result.series = result.series.inverted() }
    return result
  }

  /// Prints the stale-data note on stderr, if any.
  func report(_ staleness: Staleness?) {
    guard let staleness else { return }
    err(staleness.note(now: context.now()))
  }
}
