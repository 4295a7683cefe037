import Foundation
import RateCore

/// The `rates` command line: parses arguments, runs a command, reports
/// errors, and returns the exit code. The executable only calls ``run(_:context:)``.
public enum RatesCLI {
  /// Every subcommand, in the order the help lists them.
  static let commands: [any RatesCommand.Type] = [
    HistoryCommand.self, CurrentCommand.self, ConvertCommand.self, PairsCommand.self, TopCommand.self,
    FavoritesCommand.self, InfoCommand.self, SearchCommand.self, CurrenciesCommand.self,
    StatsCommand.self, LedgerCommand.self, ConfigCommand.self, CompletionsCommand.self,
    DoctorCommand.self, CacheCommand.self,
    WatchCommand.self,
  ]

  /// Runs `rates` with `arguments` (without the program name).
  ///
  /// - Returns: the process exit code.
  public static func run(_ arguments: [String], context: CommandContext) async -> Int32 {
    // The one redaction point: nothing printed below can carry the API key.
    let context = context.redacting(context.secrets())
    return context.output.settle(await dispatch(arguments, context: context))
  }

  /// Parses `arguments`, runs the command and reports errors.
  static func dispatch(_ arguments: [String], context: CommandContext) async -> Int32 {
    // Hidden, for the completion scripts: local words only, never an error.
    if arguments.first == CompletionWords.command {
      return CompletionWords.run(Array(arguments.dropFirst()), context: context)
    }
    var scanner = ArgumentScanner(arguments)
    var options = GlobalOptions()
    var commandType: (any RatesCommand.Type)?
    do {
      options = try GlobalOptions(parsing: &scanner)
      let wantsHelp = try scanner.flag("--help", "-h")
      let wantsVersion = try scanner.flag("--version")
      var name = scanner.positional()
      if name == "help" {
        name = scanner.positional()
        guard let name else {
          context.writeOut(mainHelp)
          return ExitCode.success.rawValue
        }
        commandType = try lookup(name)
        context.writeOut(help(for: try lookup(name)))
        return ExitCode.success.rawValue
      }
      if wantsVersion && name == nil {
        context.writeOut("rates \(RatesVersion.current)\n")
        return ExitCode.success.rawValue
      }
      guard let name else {
        if wantsHelp || arguments.isEmpty {
          context.writeOut(mainHelp)
          return ExitCode.success.rawValue
        }
        try scanner.finish()
        throw UsageError.missingArgument("command")
      }
      let type = try lookup(name)
      commandType = type
      if wantsHelp {
        context.writeOut(help(for: type))
        return ExitCode.success.rawValue
      }
      let paths = RatesPaths(environment: context.environment)
      // `doctor` reports a broken config file rather than stopping on it.
      let configFile = ConfigFile.file(paths)
      let config = type is DoctorCommand.Type ? (try? configFile.read()) ?? [:] : try configFile.read()
      let settings = try EnvironmentSettings(
        environment: context.environment, options: options, config: config,
        lenient: type is DoctorCommand.Type || type is ConfigCommand.Type)
      try options.require(formats: type.exportFormats, command: type.name)
      let command = try type.init(
        parsing: &scanner, defaults: CommandDefaults(currency: settings.currency))
      try scanner.finish()
      let invocation = Invocation(
        context: context, options: options, settings: settings,
        terminal: context.terminal(options.noColor, options.ascii))
      return try await command.run(invocation).rawValue
    } catch {
      return report(error, options: options, command: commandType, context: context).rawValue
    }
  }

  static func lookup(_ name: String) throws(UsageError) -> any RatesCommand.Type {
    if let type = commands.first(where: { $0.name == name }) { return type }
    let suggestion = EditDistance.suggestions(for: name, in: commands.map { $0.name }).first
    throw UsageError.unknownCommand(name, suggestion: suggestion)
  }

  /// Prints `error` the documented way and returns its exit code.
  static func report(
    _ error: any Error, options: GlobalOptions, command: (any RatesCommand.Type)?,
    context: CommandContext
  ) -> ExitCode {
    let report = ErrorReport(error)
    if options.json {
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
      if let data = try? JSONCoders.encoder().encode(body) {
        context.writeErr(String(decoding: data, as: UTF8.self) + "\n")
      }
      return report.exitCode
    }
    var text = "error: \(report.message)\n"
    if error is UsageError {
      if let command {
        text += "usage: \(command.usage.split(separator: "\n").joined(separator: "\n       "))\n"
        text += "See 'rates \(command.name) --help'.\n"
      } else {
        text += "usage: rates [options] <command> [arguments]\nSee 'rates --help'.\n"
      }
    }
    context.writeErr(text)
    return report.exitCode
  }

  /// The top-level help.
  static var mainHelp: String {
    let width = commands.map { $0.name.count }.max() ?? 0
    let list = commands.map {
      "  \($0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0))\($0.abstract)"
    }
    return """
      rates: exchange rates for coins and currencies, in your terminal.

      usage: rates [options] <command> [arguments]

      Commands:
      \(list.joined(separator: "\n"))

      \(GlobalOptions.help)

      \(environmentHelp)

      \(exitCodeHelp)

      Examples:
        rates history BTC EUR
        rates current BTC ETH --in EUR,USD
        rates history ETH --days 90 --chart

      See 'rates <command> --help' for a command's options.

      """
  }

  /// A command's help.
  static func help(for type: any RatesCommand.Type) -> String {
    """
    rates \(type.name): \(type.abstract)

    usage: \(type.usage.split(separator: "\n").joined(separator: "\n       "))

    \(type.details)

    \(GlobalOptions.help)

    \(exitCodeHelp)

    """
  }

  static let environmentHelp = """
    Environment:
      RATES_CURRENCY          default quote currency (USD)
      RATES_PROVIDER          force a provider (default: by pair)
      COINGECKO_API_KEY       CoinGecko demo key (header x-cg-demo-api-key)
      COINGECKO_PRO_API_KEY   CoinGecko pro key: uses pro-api.coingecko.com
      RATES_COINGECKO_URL     CoinGecko base URL (mirrors, tests)
      RATES_COINDESK_URL      CoinDesk BPI v1 base URL
      RATES_FRANKFURTER_URL   Frankfurter (ECB rates) base URL
      RATES_TIMEOUT           per-request timeout in seconds (10)
      RATES_WATCH_FLOOR       shortest 'watch' interval in seconds (tests, mirrors)
    Settings also come from 'rates config' (flags and environment take precedence).
      NO_COLOR                disable colour
      XDG_CACHE_HOME, XDG_CONFIG_HOME, XDG_DATA_HOME   file locations
    """

  static var exitCodeHelp: String {
    let lines = ExitCode.allCases.map {
      "  \(String($0.rawValue).padding(toLength: 5, withPad: " ", startingAt: 0))\($0.meaning)"
    }
    return "Exit codes:\n" + lines.joined(separator: "\n")
  }
}
