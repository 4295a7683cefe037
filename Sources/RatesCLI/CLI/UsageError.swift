import RateCore

/// A mistake in how `rates` was invoked; the CLI prints it with the usage line and exits 64.
///
/// Messages are short lower-case sentences, worded like swift-argument-parser's.
/// Option payloads hold the name exactly as the user typed it (`-d`, not `--days`).
enum UsageError: Error, Equatable, Sendable, LocalizedError {
  /// An option no command or global option recognises, such as `--x`.
  case unknownOption(String)
  /// An option without a value: last on the line, before an option or `--`, or `--days=`.
  case missingValue(option: String)
  /// An option value that does not parse; `expected` names the accepted form.
  case invalidValue(option: String, value: String, expected: String)
  /// A required positional is absent; the payload is its bare name (`base`), shown `<base>`.
  case missingArgument(String)
  /// A positional argument left over after a command took what it needs.
  case unexpectedArgument(String)
  /// A command name that does not exist, with the closest real name if there is one.
  case unknownCommand(String, suggestion: String?)
  /// An action a command does not have, such as `ad` for `rates ledger`, with the closest
  /// real one if there is one.
  case unknownAction(String, command: String, suggestion: String?)
  /// A boolean flag written with a value, such as `--json=yes`.
  case flagTakesNoValue(option: String)
  /// Any other usage problem, as a complete free-form sentence.
  case invalid(String)

  /// The message shown after `error: `.
  var errorDescription: String? {
    switch self {
    case .unknownOption(let option):
      return "unknown option '\(option)'"
    case .missingValue(let option):
      return "missing value for '\(option)'"
    case .invalidValue(let option, let value, let expected):
      return "the value '\(value)' is invalid for '\(option)': expected \(expected)"
    case .missingArgument(let name):
      return "missing argument <\(name)>"
    case .unexpectedArgument(let argument):
      return "unexpected argument '\(argument)'"
    case .unknownCommand(let command, let suggestion):
      guard let suggestion else { return "unknown command '\(command)'" }
      return "unknown command '\(command)' (did you mean '\(suggestion)'?)"
    case .unknownAction(let action, let command, let suggestion):
      let text = "unknown action '\(action)' for '\(command)'"
      guard let suggestion else { return text }
      return text + " (did you mean '\(suggestion)'?)"
    case .flagTakesNoValue(let option):
      return "'\(option)' does not take a value"
    case .invalid(let sentence):
      return sentence
    }
  }
}
