import RateCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the output terminal can show: decided once at startup, then passed down.
public struct TerminalCapabilities: Equatable, Sendable {
  /// Whether the output is a terminal (not a pipe or file).
  var isTTY: Bool
  /// The width in columns, at least ``minimumWidth``.
  var width: Int
  /// Whether to draw with UTF-8 characters (blocks, box drawing, `…`).
  var unicode: Bool
  /// Whether to emit ANSI colour codes.
  var color: Bool

  /// The narrowest width reported; narrower values are raised to it.
  static let minimumWidth = 20
  /// The width used when neither the terminal nor `COLUMNS` says.
  static let defaultWidth = 80

  /// Detects the capabilities of `fileDescriptor` with `isatty` and the `TIOCGWINSZ` ioctl.
  ///
  /// The decision itself is ``decide(isTTY:windowWidth:environment:noColorFlag:asciiFlag:)``.
  /// - Parameters:
  ///   - fileDescriptor: The output, usually `STDOUT_FILENO`.
  ///   - environment: The process environment (`ProcessInfo.processInfo.environment`).
  ///   - noColorFlag: `--no-color` was given.
  ///   - asciiFlag: `--ascii` was given.
  static func detect(
    fileDescriptor: Int32, environment: [String: String], noColorFlag: Bool, asciiFlag: Bool
  ) -> TerminalCapabilities {
    decide(
      isTTY: isatty(fileDescriptor) == 1, windowWidth: windowWidth(of: fileDescriptor),
      environment: environment, noColorFlag: noColorFlag, asciiFlag: asciiFlag)
  }

  /// Decides the capabilities from already-gathered facts; pure, for tests.
  ///
  /// - width: `windowWidth` when positive, else a positive integer `COLUMNS`,
  ///   else 80; raised to at least 20.
  /// - unicode: not `asciiFlag`, and the effective locale (the first
  ///   non-empty of `LC_ALL`, `LC_CTYPE`, `LANG`) names UTF-8 (`UTF-8` or
  ///   `utf8`, any case). When none of the three is set at all, UTF-8 is
  ///   assumed, as nearly every terminal today is UTF-8 and minimal
  ///   containers often set no locale. If some are set but all are empty,
  ///   the locale is POSIX, so not UTF-8.
  /// - color: a TTY, no `noColorFlag`, `NO_COLOR` unset or empty
  ///   (no-color.org), and `TERM` not `dumb`.
  public static func decide(
    isTTY: Bool, windowWidth: Int?, environment: [String: String], noColorFlag: Bool,
    asciiFlag: Bool
  ) -> TerminalCapabilities {
    var width = defaultWidth
    if let windowWidth, windowWidth > 0 {
      width = windowWidth
    } else if let columns = EnvironmentVariable.columns.raw(in: environment).flatMap({ Int($0) }), columns > 0 {
      width = columns
    }
    width = max(width, minimumWidth)

    let localeVariables = EnvironmentVariable.locale
    let unicode: Bool
    if asciiFlag {
      unicode = false
    } else if localeVariables.allSatisfy({ $0.raw(in: environment) == nil }) {
      unicode = true
    } else {
      let locale = localeVariables.lazy.compactMap { $0.raw(in: environment) }.first { !$0.isEmpty }
      let name = (locale ?? "").lowercased()
      unicode = name.containsUTF8("utf-8") || name.containsUTF8("utf8")
    }

    let noColor = EnvironmentVariable.noColor.raw(in: environment).map { !$0.isEmpty } ?? false
    let color =
      isTTY && !noColorFlag && !noColor && EnvironmentVariable.term.raw(in: environment) != "dumb"
    return TerminalCapabilities(isTTY: isTTY, width: width, unicode: unicode, color: color)
  }

  /// The window width from the `TIOCGWINSZ` ioctl; `nil` when it fails (not a terminal).
  static func windowWidth(of fileDescriptor: Int32) -> Int? {
    #if canImport(Glibc) || canImport(Darwin)
      var size = winsize()
      guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else {
        return nil
      }
      return Int(size.ws_col)
    #else
      return nil
    #endif
  }
}

/// ANSI SGR styling that does nothing when disabled.
///
/// Each function wraps its text in a code and the matching reset (`22` for
/// bold and dim, `27` for reverse, `39` for colours), so styles can nest.
struct Style: Sendable, Equatable {
  /// Whether codes are emitted; when false every function returns its input.
  var enabled: Bool

  /// Red text (`ESC[31m`).
  func red(_ text: String) -> String { wrap(text, "31", "39") }
  /// Green text (`ESC[32m`).
  func green(_ text: String) -> String { wrap(text, "32", "39") }
  /// Yellow text (`ESC[33m`).
  func yellow(_ text: String) -> String { wrap(text, "33", "39") }
  /// Bold text (`ESC[1m`).
  func bold(_ text: String) -> String { wrap(text, "1", "22") }
  /// Dim text (`ESC[2m`).
  func dim(_ text: String) -> String { wrap(text, "2", "22") }
  /// Reverse video (`ESC[7m`), for changed values, alerts and the selected row.
  func reverse(_ text: String) -> String { wrap(text, "7", "27") }

  /// Colours `text` by the sign of `value`: green above zero, red below, plain at zero or `NaN`.
  func change(_ text: String, value: Double) -> String {
    if value > 0 { return green(text) }
    if value < 0 { return red(text) }
    return text
  }

  private func wrap(_ text: String, _ code: String, _ reset: String) -> String {
    guard enabled else { return text }
    return "\u{1B}[\(code)m\(text)\u{1B}[\(reset)m"
  }
}
