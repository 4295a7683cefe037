import RateCore

/// `rates help --man`: the manual page rates(1) in roff, made from the very help text
/// `--help` prints (the overview, then every command and action), so the two never differ.
enum ManPage {
  /// `--man` after `rates help`.
  static let option = Option.flag("--man", help: "print the manual page rates(1) in roff")
  /// The width the help text is laid out at inside the page's no-fill blocks: with the
  /// 7 columns `man` indents them by, the page fits 80 columns.
  static let width = 72

  /// The whole page, ending with a newline.
  static func text() -> String {
    var lines = [
      ".TH RATES 1 \"\" \"rates \(RatesVersion.current)\" \"User Commands\"",
      ".SH NAME",
      "rates \\- exchange rates for coins and currencies, in your terminal",
      ".SH SYNOPSIS",
      ".B rates",
      "[options] <command> [arguments]",
      ".SH DESCRIPTION",
    ]
    lines += block(RatesCLI.mainHelp(width: width, usageLine: false))
    lines.append(".SH COMMANDS")
    for path in CommandTree.all {
      lines.append(".SS \(escape(path.fullName))")
      lines += block(CommandHelp.text(for: path, width: width))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `text` as a no-fill block, each line escaped.
  static func block(_ text: String) -> [String] {
    let body = text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : escape(String($0)) }
    return [".nf"] + trimmed(body) + [".fi"]
  }

  /// Without trailing empty lines.
  static func trimmed(_ lines: [String]) -> [String] {
    var lines = lines
    while lines.last?.isEmpty == true { lines.removeLast() }
    return lines
  }

  /// One line of text safe in roff: backslashes as `\e`, anything beyond ASCII as `\[uXXXX]`
  /// (troff reads bytes, not UTF-8), and a leading `.` or `'` (a request) guarded by `\&`.
  static func escape(_ line: String) -> String {
    var text = ""
    for scalar in line.unicodeScalars {
      switch scalar {
      case "\\": text += "\\e"
      case _ where scalar.isASCII: text.unicodeScalars.append(scalar)
      default: text += "\\[u" + hex(scalar.value) + "]"
      }
    }
    return text.hasPrefix(".") || text.hasPrefix("'") ? "\\&" + text : text
  }

  /// `2190`: at least four upper-case hex digits.
  static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
