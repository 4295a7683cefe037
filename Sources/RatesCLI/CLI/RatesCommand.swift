import Foundation
import RateCore

/// A subcommand: its name and help, how it reads its arguments, and what it does.
protocol RatesCommand: Sendable {
  /// The word that selects the command.
  static var name: String { get }
  /// A one-line summary for the command list.
  static var abstract: String { get }
  /// The usage line(s), without the leading `usage: `.
  static var usage: String { get }
  /// The options and examples, shown by `--help`.
  static var details: String { get }

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

  /// When the command started: its network work ends by ``networkDeadline``.
  let started = ContinuousClock.now

  /// The latest moment any request of this command may still run: one
  /// request timeout plus the retry budget (15 s) after the start, so no
  /// server, however slow or trickling, can keep a command alive longer.
  var networkDeadline: ContinuousClock.Instant {
    started + .seconds(settings.timeoutSeconds) + RetryPolicy().maxTotalDelay
  }

  /// The network transport with retries, bounded by ``networkDeadline``.
  func makeTransport() -> HTTPTransport {
    context.makeTransport(settings.timeoutSeconds).retrying(RetryPolicy(), sleep: context.sleep)
      .bounded(by: networkDeadline)
  }

  /// The cache.
  var cache: JSONFileCache { JSONFileCache(directory: settings.paths.cache) }

  /// The user's favorites and pairs.
  func userData() -> UserData {
    UserData(directory: settings.paths.data, notify: { [context] in context.writeErr("note: \($0)\n") })
  }

  /// The one façade over providers and the cache, configured from the
  /// settings; its notices go to stderr in words.
  var desk: RateDesk {
    RateDesk(
      configuration: deskConfiguration(mode: options.cacheMode),
      transport: { _ in makeTransport() }, now: context.now,
      notify: { [context] in context.writeErr(NoticeText.line($0) + "\n") })
  }

  /// The desk's configuration for `mode`.
  func deskConfiguration(mode: CacheMode) -> RateDesk.Configuration {
    RateDesk.Configuration(
      coinGeckoURL: settings.coinGeckoURL, coinGeckoKey: settings.coinGeckoKey,
      coinDeskURL: settings.coinDeskURL, frankfurterURL: settings.frankfurterURL,
      forcedProvider: settings.forcedProvider.flatMap(Provider.init(rawValue:)),
      cacheDirectory: settings.paths.cache, mode: mode)
  }

  /// Prints the stale-data note on stderr, if any.
  func report(_ staleness: Staleness?) {
    guard let staleness else { return }
    err(staleness.note(now: context.now()))
  }
}
