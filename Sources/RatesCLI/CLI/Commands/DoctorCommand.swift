import RateCore

/// `rates doctor`: checks the providers, the CoinGecko key, the cache, the data files and the
/// terminal, one line each.
struct DoctorCommand: RatesCommand {
  static let name = "doctor"
  static let abstract = "check providers, API key, cache, data files and terminal"
  static let discussion = """
    One line per check, each ok, warn or fail:
      coingecko           reachable, and how fast (GET /ping, with your key)
      coingecko-key       whether a key is set, its kind, and whether the host accepts it;
                          the key itself is never shown (at most its last 4 characters)
      frankfurter         reachable, and how fast (GET /latest?from=EUR&to=USD)
      coindesk            reachable (GET /currentprice/USD.json); the API is retired, so a
                          failure only warns unless you chose --provider coindesk
      cache               location, size, entries and the oldest fetch
      coins, favorites, pairs, ledger, config
                          the data and config files: readable, their version, mode 0600
      terminal            TTY, colour, width and UTF-8

    One request per provider, all at once, with the normal timeout (RATES_TIMEOUT) and no
    retries; --offline skips them. Base URLs set through the environment are shown.
    Exits 0 when every check is ok or warn, 2 when one fails.
    """
  static let examples = [
    "rates doctor",
    "rates doctor --json | jq '.checks[] | select(.status != \"ok\")'",
  ]

  init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {}

  /// `--json`.
  struct Document: Encodable {
    var ok: Bool
    var checks: [DoctorCheck]
  }

  func run(_ invocation: Invocation) async throws -> ExitCode {
    let doctor = Doctor(
      settings: invocation.settings, environment: invocation.context.environment,
      terminal: invocation.terminal, offline: invocation.options.offline,
      now: invocation.context.now,
      transport: invocation.context.makeTransport(invocation.settings.timeoutSeconds))
    let checks = await doctor.run()
    let failed = checks.filter { $0.status == .fail }.count
    let document = Document(ok: failed == 0, checks: checks)
    try invocation.write(CommandOutput(document: document) { Self.text(document, $0) })
    return failed > 0 ? .doctorFailed : .success
  }

  /// One line per check (its detail wrapped on a terminal), then the verdict.
  static func text(_ document: Document, _ layout: TextLayout) -> String {
    let style = layout.style
    let width = document.checks.map(\.name.count).max() ?? 0
    var lines: [String] = []
    for check in document.checks {
      let verdict = check.status.rawValue.padded(toLength: 5)
      let painted: String
      switch check.status {
      case .ok: painted = style.green(verdict)
      case .warn: painted = style.yellow(verdict)
      case .fail: painted = style.red(verdict)
      }
      let name = check.name.padded(toLength: width + 2)
      // On a terminal a long detail wraps; piped, one line per check stays greppable.
      let detail = wrap(
        TerminalText.sanitize(check.detail), after: 6 + name.count,
        width: layout.isTerminal ? layout.width : Int.max)
      lines.append("\(painted) \(name)\(detail.joined(separator: "\n"))")
    }
    let failed = document.checks.filter { $0.status == .fail }.count
    let warned = document.checks.filter { $0.status == .warn }.count
    if failed > 0 {
      lines.append("\n\(failed) \(failed == 1 ? "check" : "checks") failed.")
    } else if warned > 0 {
      lines.append("\nNo problems; \(warned) \(warned == 1 ? "warning" : "warnings").")
    } else {
      lines.append("\nAll checks passed.")
    }
    return lines.joined(separator: "\n")
  }

  /// A check's detail in lines that fit `width` after a `column`-wide lead, continued under
  /// the detail (or under the verdict, indented 2, when that leaves under 20 columns).
  static func wrap(_ detail: String, after column: Int, width: Int) -> [String] {
    guard detail.count > width - column else { return [detail] }
    let hang = width - column >= 20 ? column : 2
    let first = CommandHelp.wrap(detail, width: width - column)
    guard hang != column, first.count > 1 else {
      let margin = String(repeating: " ", count: column)
      return [first[0]] + first.dropFirst().map { margin + $0 }
    }
    let rest = CommandHelp.wrap(
      first.dropFirst().joined(separator: " "), width: width - hang)
    return [first[0]] + rest.map { String(repeating: " ", count: hang) + $0 }
  }
}
