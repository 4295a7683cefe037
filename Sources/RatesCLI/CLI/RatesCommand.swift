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
  /// The type whose stored properties declare the command's arguments and options.
  associatedtype Declared: Declarations = NoDeclarations
  /// The command's arguments and options, each declared once as a stored property of
  /// ``Declared``, in the order help shows them; the parser reads each through it
  /// (`scanner.read(Self.declared.chart)`).
  static var declared: Declared { get }
  /// Options that exclude each other, shown together on the usage line, such as
  /// `[--chart | --table]`; the parser refuses two of a group and help says so.
  static var optionGroups: [OptionGroup] { get }
  /// Other options that cannot be used together: the parser refuses them and help says so
  /// beside each (``OptionRules``).
  static var exclusions: [OptionRule] { get }
  /// Options that go only with another: the parser refuses one alone and help says so.
  static var requirements: [OptionRule] { get }
  /// The actions, for a command that has them.
  static var subcommands: [any CommandDeclaration.Type] { get }
  /// The action run when none is named (`list`), if any.
  static var defaultSubcommand: (any CommandDeclaration.Type)? { get }
  /// Free text for `--help` after the options: how it works, notes.
  static var discussion: String { get }
  /// Whole command lines for `--help`, each starting with `rates`.
  static var examples: [String] { get }
  /// The type as a command that runs; nil for a command that only groups actions. What
  /// `as? any RatesCommand.Type` answers, without the protocol conformance lookup a
  /// dynamic cast costs the first time (a scan of every conformance in the binary).
  static var runnable: (any RatesCommand.Type)? { get }
}

extension CommandDeclaration {
  static var aliases: [String] { [] }

  /// The positional arguments, in order: the ``Argument``s ``declared`` declares.
  static var arguments: [ArgumentSpec] { declared.arguments }
  /// The command's own options (global options are in ``GlobalOptions``): the ``Option``s
  /// ``declared`` declares.
  static var options: [OptionSpec] { declared.options }
  static var optionGroups: [OptionGroup] { [] }
  static var exclusions: [OptionRule] { [] }
  static var requirements: [OptionRule] { [] }
  static var subcommands: [any CommandDeclaration.Type] { [] }
  static var defaultSubcommand: (any CommandDeclaration.Type)? { nil }
  static var discussion: String { "" }
  static var examples: [String] { [] }
  static var runnable: (any RatesCommand.Type)? { nil }

  /// The name and every alias.
  static var names: [String] { [name] + aliases }

  /// Whether `action` is the action run when none is named.
  static func runsByDefault(_ action: any CommandDeclaration.Type) -> Bool {
    defaultSubcommand.map { ObjectIdentifier($0) == ObjectIdentifier(action) } ?? false
  }
}

extension CommandDeclaration {
  /// The declarations, made when asked: a few specs, which cost less to make than to keep.
  static var declared: Declared { Declared() }
}

/// The arguments and options of a command, declared once each as the stored properties of
/// a type (`let chart = Option.flag(…)`): its help, usage line, completions and option
/// rules list them from here, in declaration order, so a new option is its declaration and
/// the read that uses it.
protocol Declarations: Sendable {
  init()
}

extension Declarations {
  /// The options declared, in the order they are declared.
  var options: [OptionSpec] {
    Mirror(reflecting: self).children.compactMap { ($0.value as? any OptionDeclaration)?.spec }
  }

  /// The arguments declared, in the order they are declared.
  var arguments: [ArgumentSpec] {
    Mirror(reflecting: self).children.compactMap { ($0.value as? any ArgumentDeclaration)?.spec }
  }
}

/// The declarations of a command that takes no arguments and no options of its own.
struct NoDeclarations: Declarations {}

/// A command that runs: it reads its own options and arguments, then does its work.
protocol RatesCommand: CommandDeclaration {
  /// Reads the command's own options and arguments.
  init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError)

  /// Runs the command and returns its exit code.
  func run(_ invocation: Invocation) async throws -> ExitCode

  /// The `--format` values beyond table and json the command writes.
  static var exportFormats: Set<OutputFormat> { get }

  /// Why the command cannot write JSON, for the usage error `--json` gets; `nil` when
  /// it can.
  static var noJSON: String? { get }
}

extension RatesCommand {
  static var runnable: (any RatesCommand.Type)? { self }
  static var exportFormats: Set<OutputFormat> { [] }
  static var noJSON: String? { nil }
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
  /// The one façade over providers and the cache, configured from the settings; its notices
  /// go to stderr in words. Built once: every use in a run is the same desk, sharing what
  /// the run asked (``RateDesk/showing(_:)`` narrows its notices without another).
  let desk: RateDesk

  /// A run of `rates` with these settings, started at `started` (its network deadline,
  /// ``networkDeadline(started:settings:)``, runs from there), its one desk built here.
  init(
    context: CommandContext, options: GlobalOptions, settings: EnvironmentSettings,
    terminal: TerminalCapabilities, progress: FetchProgress? = nil,
    started: ContinuousClock.Instant = ContinuousClock.now
  ) {
    self.context = context
    self.options = options
    self.settings = settings
    self.terminal = terminal
    let deadline = Self.networkDeadline(started: started, settings: settings)
    desk = RateDesk(
      configuration: Self.deskConfiguration(settings, mode: options.cacheMode),
      transport: { _ in
        Self.transport(context: context, settings: settings, progress: progress, deadline: deadline)
      },
      // A coin source with another behind it is asked once: on a timeout, 5xx or 429 the
      // next one answers at once, inside the command's deadline.
      chainTransport: { _ in
        Self.transport(
          context: context, settings: settings, progress: progress, deadline: deadline, policy: .none)
      },
      now: context.now,
      notify: { [context] in context.writeErr(NoticeText.line($0) + "\n") })
  }

  /// Colours, enabled only when the terminal allows.
  var style: Style { layout.style }

  /// Prints `text` and a newline on stdout.
  func out(_ text: String) { context.writeOut(text + "\n") }

  /// Prints `text` and a newline on stderr.
  func err(_ text: String) { context.writeErr(text + "\n") }

  /// The latest moment any request of this command may still run: one
  /// request timeout plus the retry budget (15 s) after the start, so no
  /// server, however slow or trickling, can keep a command alive longer.
  static func networkDeadline(started: ContinuousClock.Instant, settings: EnvironmentSettings)
    -> ContinuousClock.Instant
  {
    started + .seconds(settings.timeoutSeconds) + RetryPolicy().maxTotalDelay
  }

  static func transport(
    context: CommandContext, settings: EnvironmentSettings, progress: FetchProgress?,
    deadline: ContinuousClock.Instant, policy: RetryPolicy = RetryPolicy()
  ) -> HTTPTransport {
    let transport = context.makeTransport(settings.timeoutSeconds)
      .retrying(policy, sleep: context.sleep, now: context.monotonicNow)
      .bounded(by: deadline)
    guard let progress else { return transport }
    return transport.reporting(to: progress) { [settings] request in settings.providerName(of: request) }
  }

  /// The user's favorites and pairs.
  func userData() -> UserData {
    UserData(
      directory: settings.paths.data, notify: { [context] in context.writeErr("note: \($0)\n") })
  }

  /// The desk's configuration from `settings`, for `mode`.
  static func deskConfiguration(_ settings: EnvironmentSettings, mode: CacheMode)
    -> RateDesk.Configuration
  {
    var configuration = RateDesk.Configuration(
      coinGeckoURL: settings.coinGeckoURL, coinGeckoKey: settings.coinGeckoKey,
      coinDeskURL: settings.coinDeskURL, frankfurterURL: settings.frankfurterURL,
      coinbaseURL: settings.coinbaseURL, krakenURL: settings.krakenURL,
      coinSources: settings.coinSources, forcedProvider: settings.forcedProvider,
      cacheDirectory: settings.paths.cache, mode: mode)
    configuration.ecbURL = settings.ecbURL
    return configuration
  }

  /// The user's CoinGecko key setup, for key advice that fits it.
  var keySetup: KeySetup { KeySetup(settings: settings, environment: context.environment) }

  /// The one rule for a partial answer (`pairs`, `current`, `top`, `coins`, `favorites`):
  /// when nothing `arrived`, the first failure is thrown (its own exit code, as when the whole
  /// answer fails); otherwise one warning line on stderr names what is missing and the command
  /// shows the rest (exit 0; `--json` lists the names in `missing`).
  func report(partial missing: [MissingFigure], arrived: Bool) throws {
    guard !missing.isEmpty else { return }
    if !arrived, let failure = missing.lazy.compactMap(\.failure).first { throw failure }
    err(NoticeText.missing(missing, keySetup: keySetup))
  }

  /// Prints the stale-data note on stderr, if any.
  func report(_ staleness: Staleness?) {
    guard let staleness else { return }
    err(staleness.note(now: context.now(), keySetup: keySetup))
  }

  /// The notes of a history answer: stale cache, and today's price missing
  /// while the past days arrived.
  func report(_ result: RateService.HistoryResult) {
    report(result.staleness)
    if let failure = result.latestMissing {
      let pair = TerminalText.sanitize("\(result.series.base)/\(result.series.quote)")
      err(
        "warning: today's \(pair) price did not arrive "
          + "(\(TerminalText.sanitize(failure.readableDescription))); showing the days that did")
    }
  }
}
