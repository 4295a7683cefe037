import RateCore

/// The `rates` command line: parses arguments, runs a command, reports
/// errors, and returns the exit code. The executable only calls ``run(_:context:)``.
public enum RatesCLI {
  /// Every command, in the order the help lists them.
  static let commands: [any CommandDeclaration.Type] = [
    HistoryCommand.self, CurrentCommand.self, ConvertCommand.self, PairsCommand.self, TopCommand.self,
    CoinsCommand.self, FavoritesCommand.self, InfoCommand.self, SearchCommand.self, CurrenciesCommand.self,
    StatsCommand.self, LedgerCommand.self, PortfolioCommand.self, ConfigCommand.self, CompletionsCommand.self,
    DoctorCommand.self, CacheCommand.self,
    WatchCommand.self, HomeCommand.self,
  ]

  /// Runs `rates` with `arguments` (without the program name) on the calling thread and
  /// returns when the command is done: every job of the command runs here
  /// (``CallerThreadExecutor``), so a command answered from the cache starts no thread,
  /// and one that fetches waits here while its transfers run on their own threads.
  ///
  /// - Returns: the process exit code.
  public static func runOnThisThread(_ arguments: [String], context: CommandContext) -> Int32 {
    CallerThreadExecutor.run { await run(arguments, context: context) }
  }

  /// Runs `rates` with `arguments` (without the program name).
  ///
  /// - Returns: the process exit code.
  public static func run(_ arguments: [String], context: CommandContext) async -> Int32 {
    // Read once: the settings come from it, and so does the key to redact.
    let config = Result { try ConfigFile.read(RatesPaths(environment: context.environment)) }
    // The one redaction point: nothing printed below can carry the API key.
    let context = context.redacting(context.secrets(config: try? config.get()))
    return context.output.settle(await dispatch(arguments, config: config, context: context))
  }

  /// Parses `arguments`, runs the command and reports errors.
  static func dispatch(
    _ arguments: [String], config: Result<[String: String], any Error>, context: CommandContext
  ) async -> Int32 {
    var context = context
    // Hidden, for the completion scripts: local words only, never an error.
    if arguments.first == CompletionWords.command {
      return CompletionWords.run(Array(arguments.dropFirst()), context: context)
    }
    // Bare `rates` on a terminal: the home screen.
    if arguments.isEmpty && HomeCommand.isInteractive(context) {
      return await dispatch(["ui"], config: config, context: context)
    }
    var scanner = ArgumentScanner(arguments, today: Day(containing: context.now()))
    var options = GlobalOptions()
    var path: CommandPath?
    do {
      // Set as they are read: an error in a later option is still reported as JSON.
      try options.parse(&scanner)
      if options.ascii { context = context.foldingToASCII(textOut: options.mode == .text) }
      let wantsHelp = try scanner.read(GlobalOptions.declared.help)
      let wantsVersion = try scanner.read(GlobalOptions.declared.version)
      guard let name = scanner.positional() else {
        guard
          let code = try withoutCommand(
            scanner, bare: arguments.isEmpty, help: wantsHelp, version: wantsVersion,
            options: options, context: context)
        else { return await dispatch(arguments + ["ui"], config: config, context: context) }
        return code  // nil above: global options alone on a terminal open the home screen
      }
      if name == "help" { return try help(&scanner, options: options, context: context) }
      let root = CommandPath(try CommandTree.command(named: name))
      path = root
      let resolved = try CommandTree.resolveActions(
        from: root, scanner: &scanner, lenient: wantsHelp)
      path = resolved
      if wantsHelp {
        try printHelp(
          CommandHelp.text(for: resolved, width: helpWidth(options, context)),
          command: resolved.fullName, options: options, context: context)
        return ExitCode.success.rawValue
      }
      return try await execute(
        resolved, scanner, options: options, config: config, context: context
      ).rawValue
    } catch {
      let keySetup = KeySetup(environment: context.environment, config: try? config.get())
      return report(
        error, options: options, path: path, context: context, keySetup: keySetup
      ).rawValue
    }
  }

  /// A command line that names no command: `--version`, `--help`, bare `rates` when it does
  /// not open the home screen (`bare`), else a usage error; nil when global options alone
  /// on a terminal open the home screen.
  static func withoutCommand(
    _ scanner: ArgumentScanner, bare: Bool, help: Bool, version: Bool, options: GlobalOptions,
    context: CommandContext
  ) throws -> Int32? {
    if version {
      let version = CommandOutput(document: VersionDocument(rates: RatesVersion.current)) {
        context.writeOut("rates \(RatesVersion.current)\n")
      }
      // The layout is asked for only by a rendered text: never for these two.
      try version.write(
        options: options, context: context,
        layout: TextLayout(context.terminal(options.noColor, options.ascii), options: options))
      return ExitCode.success.rawValue
    }
    if help || bare {
      try printTopHelp(bare: bare, options: options, context: context)
      return ExitCode.success.rawValue
    }
    try scanner.finish()
    // nil: global options alone on a terminal open the home screen with them.
    if HomeCommand.isInteractive(context) { return nil }
    throw UsageError.missingArgument("command")
  }

  /// `rates --help`, or bare `rates` when it does not open the home screen: the whole
  /// help on a terminal, into a pipe a short overview for bare `rates`.
  static func printTopHelp(bare: Bool, options: GlobalOptions, context: CommandContext) throws {
    let terminal = context.terminal(options.noColor, options.ascii)
    let width = CommandHelp.width(forTerminal: terminal.width)
    let text = bare && !terminal.isTTY ? overview(width: width) : mainHelp(width: width)
    try printHelp(text, command: "rates", options: options, context: context)
  }

  /// Prints help `text` for `command`: with `json` as a ``HelpDocument``, else through the
  /// pager when it overflows the terminal (``Pager``), else as it is.
  static func printHelp(
    _ text: String, command: String, options: GlobalOptions, context: CommandContext
  ) throws {
    let help = CommandOutput(document: HelpDocument(command: command, help: text)) {
      if !context.page(text) { context.writeOut(text) }
    }
    // The layout is asked for only by a rendered text: never for these two.
    try help.write(
      options: options, context: context,
      layout: TextLayout(context.terminal(options.noColor, options.ascii), options: options))
  }

  /// `rates help [<command>...]`, and `rates help --man` (the manual page, from the same text).
  static func help(
    _ scanner: inout ArgumentScanner, options: GlobalOptions, context: CommandContext
  ) throws -> Int32 {
    if try scanner.read(ManPage.option) {
      context.writeOut(ManPage.text())
      return ExitCode.success.rawValue
    }
    let named = try CommandTree.path(named: scanner.positionals())
    let width = helpWidth(options, context)
    try printHelp(
      named.map { CommandHelp.text(for: $0, width: width) } ?? mainHelp(width: width),
      command: named?.fullName ?? "rates", options: options, context: context)
    return ExitCode.success.rawValue
  }

  /// The width help wraps to on this terminal; asked only when help is printed.
  static func helpWidth(_ options: GlobalOptions, _ context: CommandContext) -> Int {
    CommandHelp.width(forTerminal: context.terminal(options.noColor, options.ascii).width)
  }

  /// Reads the settings, parses the command's own arguments and runs it.
  static func execute(
    _ path: CommandPath, _ scanner: ArgumentScanner, options: GlobalOptions,
    config stored: Result<[String: String], any Error>, context: CommandContext
  ) async throws -> ExitCode {
    // `doctor` reports a broken config file rather than stopping on it.
    let isDoctor = path.root is DoctorCommand.Type
    let config = isDoctor ? (try? stored.get()) ?? [:] : try stored.get()
    let settings = try EnvironmentSettings(
      environment: context.environment, options: options, config: config,
      lenient: isDoctor || path.root is ConfigCommand.Type)
    let type = path.last.runnable
    try options.require(
      formats: type?.exportFormats ?? [], command: path.words, siblings: siblingFormats(path))
    if options.mode == .document, let reason = type?.noJSON {
      throw UsageError.invalid("--json is not available for '\(path.fullName)': \(reason)")
    }
    let command = try parse(
      path, scanner,
      defaults: CommandDefaults(currency: settings.currency),
      format: options.format)
    let terminal = context.terminal(options.noColor, options.ascii)
    let progress = FetchProgress.make(
      context: context, json: options.mode == .document, unicode: terminal.unicode)
    var context = context
    if let progress {
      // Any other line on stderr first erases the progress line.
      let write = context.writeErr
      context.writeErr = { text in
        progress.interrupt()
        write(text)
      }
    }
    let invocation = Invocation(
      context: context, options: options, settings: settings, terminal: terminal,
      progress: progress, started: context.monotonicNow())
    return try await command.run(invocation)
  }

  /// Parses the command `path` names from what is left of the command line: its own
  /// options and arguments, and nothing else.
  ///
  /// - Parameter format: The output format the global options ask for, which a declared
  ///   rule may refuse (`--interactive cannot be used with --json`).
  /// - Throws: `UsageError`, also for an option only a sibling action takes.
  static func parse(
    _ path: CommandPath, _ scanner: ArgumentScanner, defaults: CommandDefaults,
    format: OutputFormat?
  ) throws(UsageError) -> any RatesCommand {
    guard let type = path.last.runnable else {
      throw UsageError.missingArgument("action")
    }
    var parsing = scanner
    do {
      try CommandTree.refuseExclusions(type, scanner: parsing, format: format)
      let command = try type.init(parsing: &parsing, defaults: defaults)
      try parsing.finish()
      return command
    } catch {
      // An option only a sibling action takes is named as such, whatever else went wrong.
      try CommandTree.refuseSiblingOptions(path, scanner: scanner)
      throw error
    }
  }

  /// The export formats of the other actions of `path`'s command, by full name.
  static func siblingFormats(_ path: CommandPath) -> [(name: String, formats: Set<OutputFormat>)] {
    guard let parent = path.parent else { return [] }
    var formats: [(name: String, formats: Set<OutputFormat>)] = []
    for sibling in CommandTree.leaves(below: parent) where sibling.words != path.words {
      if let type = sibling.last.runnable, !type.exportFormats.isEmpty {
        formats.append((sibling.fullName, type.exportFormats))
      }
    }
    return formats
  }

  /// Prints `error` the documented way and returns its exit code.
  static func report(
    _ error: any Error, options: GlobalOptions, path: CommandPath?, context: CommandContext,
    keySetup: KeySetup? = nil
  ) -> ExitCode {
    let report = ErrorReport(error, keySetup: keySetup)
    if options.mode == .document {
      struct Body: Encodable {
        struct Detail: Encodable {
          var code: String
          var message: String
          var exitCode: Int32
        }
        var error: Detail
      }
      let body = Body(
        error: .init(code: report.code, message: report.message, exitCode: report.exitCode.rawValue))
      if let data = try? JSONCoders.encoder().encode(Versioned(body)) {
        context.writeErr(String(decoding: data, as: UTF8.self) + "\n")
      }
      return report.exitCode
    }
    var text = report.message.split(separator: "\n").map { "error: \($0)\n" }.joined()
    if error is UsageError {
      if let path {
        text += "usage: \(CommandHelp.usage(for: path).joined(separator: "\n       "))\n"
        text += "See '\(path.fullName) --help'.\n"
      } else {
        text += "usage: rates [options] <command> [arguments]\nSee 'rates --help'.\n"
      }
    }
    context.writeErr(text)
    return report.exitCode
  }

  /// `--version --json`.
  struct VersionDocument: Encodable {
    var rates: String
  }

  /// `help --json`: the help text in a document.
  struct HelpDocument: Encodable {
    var command: String
    var help: String
  }

  /// The top-level help (`rates help`, `rates --help`, bare `rates` on a terminal): every
  /// command, the global options, environment and exit codes, wrapped to `width`.
  ///
  /// - Parameter usageLine: Whether to show the usage line (the man page has it in SYNOPSIS).
  static func mainHelp(width: Int = CommandHelp.width, usageLine: Bool = true) -> String {
    [
      CommandHelp.wrap(title, width: width).joined(separator: "\n"),
      usageLine ? "usage: rates [options] <command> [arguments]" : nil,
      commandList(width: width),
      CommandHelp.globalOptions(width: width),
      environmentHelp(width: width),
      exitCodeHelp(width: width),
      CommandHelp.examples(examples, width: width),
      "See 'rates <command> --help' for a command's options.",
    ].compactMap { $0 }.joined(separator: "\n\n") + "\n"
  }

  /// Bare `rates` with stdout piped: what it is, its commands, and where the rest is.
  static func overview(width: Int = CommandHelp.width) -> String {
    [
      CommandHelp.wrap(title, width: width).joined(separator: "\n"),
      "usage: rates [options] <command> [arguments]",
      commandList(width: width),
      CommandHelp.wrap(
        "See 'rates help' for global options, environment and exit codes, and "
          + "'rates <command> --help' for a command's options.", width: width
      ).joined(separator: "\n"),
    ].joined(separator: "\n\n") + "\n"
  }

  static let title = "rates: exchange rates for coins and currencies, in your terminal."

  /// The `Commands:` section.
  static func commandList(width: Int) -> String {
    let column = (commands.map { $0.name.count }.max() ?? 0) + 4
    let rows = commands.flatMap { command in
      let head = "  " + command.name.padded(toLength: column - 2)
      let body = CommandHelp.wrap(command.abstract, width: max(width - column, 20))
      let margin = String(repeating: " ", count: column)
      return [head + (body.first ?? "")] + body.dropFirst().map { margin + $0 }
    }
    return (["Commands:"] + rows).joined(separator: "\n")
  }

  /// The examples of `rates help`, each a whole command line.
  static let examples = [
    "rates history BTC EUR",
    "rates current BTC ETH --in EUR,USD",
    "rates history ETH --days 90 --chart",
    "rates ledger add 100 USD 8950000 LBP --sell",
  ]

  /// The `Environment:` section: every variable, then where else settings come from.
  static func environmentHelp(width: Int = CommandHelp.width) -> String {
    let rows = EnvironmentVariable.documented.flatMap { variable in
      let (label, text) = (variable.name, variable.help)
      let head = "  " + label.padded(toLength: 24)
      let body = CommandHelp.wrap(text, width: max(width - 26, 20))
      return [head + (body.first ?? "")] + body.dropFirst().map { String(repeating: " ", count: 26) + $0 }
    }
    let note = CommandHelp.wrap(
      "Settings also come from 'rates config' (flags and environment take precedence).",
      width: width)
    return (["Environment:"] + rows + [""] + note).joined(separator: "\n")
  }

  /// The `Exit codes:` section, each meaning wrapped to `width`.
  static func exitCodeHelp(width: Int = CommandHelp.width) -> String {
    let lines = ExitCode.allCases.flatMap { code in
      let body = CommandHelp.wrap(code.meaning, width: max(width - 7, 20))
      let head = "  " + String(code.rawValue).padded(toLength: 5)
      return [head + (body.first ?? "")] + body.dropFirst().map { "       " + $0 }
    }
    return "Exit codes:\n" + lines.joined(separator: "\n")
  }
}
