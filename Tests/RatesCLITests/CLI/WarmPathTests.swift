import Foundation
import Testing

@testable import RateCore
@testable import RatesCLI
import RatesTestSupport

/// What a warm command does without the run-time protocol conformance lookups that cost it
/// a scan of every conformance in the binary each (docs/guide.md, "What a warm command does"):
/// the replacements answer exactly as what they replace.
@Suite struct WarmPathTests {
  /// Every command and action, groups included.
  static func allDeclarations() -> [any CommandDeclaration.Type] {
    var found: [any CommandDeclaration.Type] = []
    var pending = RatesCLI.commands
    while let next = pending.popLast() {
      found.append(next)
      pending.append(contentsOf: next.subcommands)
    }
    return found
  }

  @Test func runnableIsWhatTheCastAnswers() {
    let declarations = Self.allDeclarations()
    #expect(declarations.count > RatesCLI.commands.count)
    var groups = 0
    for declaration in declarations {
      let cast = (declaration as? any RatesCommand.Type).map(ObjectIdentifier.init)
      #expect(declaration.runnable.map(ObjectIdentifier.init) == cast, "\(declaration.name)")
      if cast == nil { groups += 1 }
    }
    #expect(groups > 0)  // some commands only group actions (ledger, portfolio, …)
  }

  @Test func resolvedSettingsKeepOneSlotPerKey() {
    var resolved = ResolvedSettings()
    #expect(ConfigKey.allCases.allSatisfy { resolved[$0] == nil })
    for key in ConfigKey.allCases { resolved[key] = (key.rawValue + "-value", .configFile) }
    resolved[.timeout] = (nil, .environment("RATES_TIMEOUT"))
    for key in ConfigKey.allCases where key != .timeout {
      #expect(resolved[key]?.value == key.rawValue + "-value")
      #expect(resolved[key]?.source == .configFile)
    }
    #expect(resolved[.timeout]?.value == nil)
    #expect(resolved[.timeout]?.source == .environment("RATES_TIMEOUT"))
  }

  @Test func anOptionsExpectedFormIsBuiltOnlyForAnError() throws {
    final class Counter: @unchecked Sendable { var count = 0 }
    let counter = Counter()
    func expected() -> String {
      counter.count += 1
      return "one of table, json"
    }
    var scanner = ArgumentScanner(["--format", "json"])
    #expect(try scanner.option(GlobalOptions.Specs.format, expected: expected()) { $0 } == "json")
    #expect(counter.count == 0)
    var bad = ArgumentScanner(["--format", "xml"])
    #expect(throws: UsageError.self) {
      try bad.option(GlobalOptions.Specs.format, expected: expected()) { _ in String?.none }
    }
    #expect(counter.count == 1)
    var choice = ArgumentScanner(["--format", "xml"])
    do {
      _ = try choice.choice(GlobalOptions.Specs.format)
      Issue.record("xml accepted")
    } catch .invalidValue(option: _, value: _, let expected) {
      #expect(expected.hasPrefix("table, json"))
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test(arguments: [
    ("1,234.56 EUR", 7), ("61,234.5", 2), ("1,234", 0), ("12 of 28", nil), ("none", nil),
  ] as [(String, Int?)])
  func aNumberCellsFractionWidth(_ cell: String, _ width: Int?) {
    #expect(TableLayout.fractionWidth(cell) == width)
  }

  @Test(arguments: [
    ("en_US.UTF-8", true), ("C.utf8", true), ("C", false), ("de_DE.ISO-8859-1", false),
  ])
  func aLocaleNamingUTF8ShowsUnicode(_ locale: String, _ unicode: Bool) {
    let terminal = TerminalCapabilities.decide(
      isTTY: false, windowWidth: 80, environment: ["LANG": locale], noColorFlag: false,
      asciiFlag: false)
    #expect(terminal.unicode == unicode)
  }

  @Test func configFileReadGivesWhatTheDataFileHolds() throws {
    try withTemporaryDirectory { home in
      let paths = RatesPaths(environment: ["XDG_CONFIG_HOME": home.path, "HOME": home.path])
      #expect(try ConfigFile.read(paths) == [:])
      try ConfigFile.file(paths).update { $0["currency"] = "EUR" }
      #expect(try ConfigFile.read(paths) == ["currency": "EUR"])
      #expect(try ConfigFile.read(paths) == (try ConfigFile.file(paths).read()))
      try Data("{not json".utf8).write(to: ConfigFile.url(paths))
      #expect(throws: DataFileError.self) { try ConfigFile.read(paths) }
    }
  }
}
