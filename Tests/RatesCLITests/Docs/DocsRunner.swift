import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

/// Runs documentation examples as one user on the fake API, the way a shell would: files a
/// `>` wrote are there for a later command that names them, `<` reads them.
final class DocsRunner: Sendable {
  let cli: CLIHarness
  let api: InProcessServer
  /// The files examples wrote with `>`, by the name they gave.
  let written = Recorder<String>()

  /// The path of jq, when installed.
  static let jq: String? = ["/usr/bin/jq", "/usr/local/bin/jq", "/bin/jq"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// What the examples' input files hold before any example wrote them.
  static let givenFiles = [
    "~/coingecko-key.txt": "CG-docsExampleKey000000000\n",
    // Exchange exports the import examples name: real files from fixtures/real/exchanges.
    "ledgers.csv": exchangeFile(
      "kraken/ledgers_old10_TRX_stake_unstake_transfers_weekly_rewards_blank_lines_CRLF__vergiFinance.csv"),
    "Coinbase-Transactions.csv": exchangeFile(
      "coinbase/transactions_2023_spot_price_preamble_send_buy_receive_exponent_convert__GhostfolioSidekick.csv"),
    "binance-statement.csv": exchangeFile(
      "binance/statement_v1_buy_fee_in_bought_coin_sell_fee_in_EUR__unidentified-repo-id39064262105.csv"),
  ]

  static func exchangeFile(_ path: String) -> String {
    (try? String(contentsOf: Fixtures.url("real/exchanges/" + path), encoding: .utf8)) ?? ""
  }

  init(now: Date) throws {
    (cli, api) = try CLIHarness.withFakeAPI(now: now)
  }

  /// `name` (`~/x`, `x`) inside the harness's home.
  func file(_ name: String) -> URL {
    let relative = name.hasPrefix("~/") ? String(name.dropFirst(2)) : name
    return cli.home.appendingPathComponent(relative)
  }

  /// Runs `example`; records an issue unless it exits 0 (or, for a full-screen example, stops
  /// only at needing a terminal) and its jq filter gives something without null.
  func expectRuns(_ example: DocsExample) async {
    let result = await run(example)
    if Self.needsTerminal(example) {
      expect(
        result.status == 64 && result.stderr.contains("terminal"),
        "\(example) parses up to needing a terminal: \(result.stderr)")
      return
    }
    expectEqual(result.status, 0, "\(example): exit \(result.status): \(result.stderr)")
    if let output = example.output {
      write(result.stdout, to: output, append: false)
    }
    guard let jq = example.jq, result.status == 0 else { return }
    do {
      let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
      let values = try JQSubset.run(jq.filter, on: document)
      expect(!values.contains(where: JQSubset.holdsNull), "\(example) | jq gives null: \(values)")
    } catch {
      Issue.record("\(example) | jq '\(jq.filter)': \(error)")
    }
  }

  /// The command's own run: the arguments with files resolved, `watch` limited to one update.
  func run(_ example: DocsExample) async -> CommandResult {
    let written = Set(written.all)
    var arguments = example.arguments.map { argument in
      if written.contains(argument) { return file(argument).path }
      // A given file named as an argument (an exchange export to import) is put in place.
      guard let given = Self.givenFiles[argument] else { return argument }
      try? Data(given.utf8).write(to: file(argument))
      return file(argument).path
    }
    if arguments.first == "watch", !arguments.contains("--count") {
      arguments += ["--count", "1"]
    }
    let stdin = example.input.map { name in
      (try? String(contentsOf: file(name), encoding: .utf8)) ?? Self.givenFiles[name] ?? ""
    }
    return await cli.run(arguments, stdin: stdin)
  }

  static func needsTerminal(_ example: DocsExample) -> Bool {
    example.arguments.first == "ui" || example.arguments.contains("--interactive")
  }

  func write(_ text: String, to name: String, append: Bool) {
    let url = file(name)
    try? FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try? Data(text.utf8).write(to: url)
    written.append(name)
  }

  /// Runs `example` and its filter through jq as well; records an issue unless both give the
  /// same values.
  func expectSubsetAgreesWithJQ(_ example: DocsExample) async {
    guard let jq = example.jq, let path = Self.jq else { return }
    let result = await run(example)
    guard result.status == 0 else { return }  // reported by the example's own test
    do {
      // Awaited, not waited for: a blocking wait here held one of the pool's few threads.
      let jqRun = try await runProcess(
        URL(fileURLWithPath: path), ["-c", jq.filter], stdin: result.stdout, mergingErrors: true)
      let text = jqRun.stdout
      let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
      let subset = Result { try JQSubset.run(jq.filter, on: document) }
      guard jqRun.status == 0 else {
        #expect(throws: (any Error).self, "jq failed (\(text)); the subset must too") {
          try subset.get()
        }
        return
      }
      let values = try text.split(separator: "\n").map {
        try JSONSerialization.jsonObject(with: Data($0.utf8), options: .fragmentsAllowed)
      }
      let mine = try subset.get()
      expect(
        values.count == mine.count && zip(values, mine).allSatisfy(JQSubset.isEqual),
        "\(example): jq \(text) vs subset \(JQSubset.text(mine, raw: false))")
    } catch {
      Issue.record("\(example): \(error)")
    }
  }
}
