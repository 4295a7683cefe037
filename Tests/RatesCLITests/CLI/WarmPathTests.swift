import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

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
    expect(declarations.count > RatesCLI.commands.count)
    var groups = 0
    for declaration in declarations {
      let cast = (declaration as? any RatesCommand.Type).map(ObjectIdentifier.init)
      expectEqual(declaration.runnable.map(ObjectIdentifier.init), cast, "\(declaration.name)")
      if cast == nil { groups += 1 }
    }
    expect(groups > 0)  // some commands only group actions (ledger, portfolio, …)
  }

  @Test func anOptionsExpectedFormIsBuiltOnlyForAnError() throws {
    final class Counter: @unchecked Sendable { var count = 0 }
    let counter = Counter()
    func expected() -> String {
      counter.count += 1
      return "one of table, json"
    }
    var scanner = ArgumentScanner(["--format", "json"])
    let names = GlobalOptions.declared.format.spec.names
    expectEqual(try scanner.typedOption(names, expected: expected()) { $0 }, "json")
    expectEqual(counter.count, 0)
    var bad = ArgumentScanner(["--format", "xml"])
    #expect(throws: UsageError.self) {
      try bad.typedOption(names, expected: expected()) { _ in String?.none }
    }
    expectEqual(counter.count, 1)
    var choice = ArgumentScanner(["--format", "xml"])
    do {
      _ = try choice.read(GlobalOptions.declared.format)
      Issue.record("xml accepted")
    } catch .invalidValue(option: _, value: _, let expected) {
      expect(expected.hasPrefix("table, json"))
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test(
    arguments: [
      ("1,234.56 EUR", 7), ("61,234.5", 2), ("1,234", 0), ("12 of 28", nil), ("none", nil),
      ("\u{1B}[32m+1.25\u{1B}[0m", 3), ("€1.5", 2), ("1.5 €", 4), ("—", nil),
    ] as [(String, Int?)])
  func aNumberCellsFractionWidth(_ cell: String, _ width: Int?) {
    expectEqual(TableLayout.fractionWidth(cell), width)
  }

  @Test(arguments: [
    ("en_US.UTF-8", true), ("C.utf8", true), ("C", false), ("de_DE.ISO-8859-1", false),
  ])
  func aLocaleNamingUTF8ShowsUnicode(_ locale: String, _ unicode: Bool) {
    let terminal = TerminalCapabilities.decide(
      isTTY: false, windowWidth: 80, environment: ["LANG": locale], noColorFlag: false,
      asciiFlag: false)
    expectEqual(terminal.unicode, unicode)
  }

  @Test func configFileReadGivesWhatTheDataFileHolds() throws {
    try withTemporaryDirectory { home in
      let paths = RatesPaths(environment: ["XDG_CONFIG_HOME": home.path, "HOME": home.path])
      expectEqual(try ConfigFile.read(paths), [:])
      try ConfigFile.file(paths).update { $0["currency"] = "EUR" }
      expectEqual(try ConfigFile.read(paths), ["currency": "EUR"])
      expectEqual(try ConfigFile.read(paths), (try ConfigFile.file(paths).read()))
      try Data("{not json".utf8).write(to: ConfigFile.url(paths))
      #expect(throws: DataFileError.self) { try ConfigFile.read(paths) }
    }
  }

  /// What `processEnvironment` did before it split bytes: each entry a `String(cString:)`,
  /// split at its first `=` character.
  static func characterLevelEnvironment(_ entries: [[UInt8]]) -> [String: String] {
    var environment: [String: String] = [:]
    for bytes in entries {
      let text = (bytes + [0]).withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
      if let equals = text.firstIndex(of: "="), environment[String(text[..<equals])] == nil {
        environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
      }
    }
    return environment
  }

  /// `entries` as `environ` holds them: C strings, then nil.
  static func withEnviron<R>(
    _ entries: [[UInt8]], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R
  ) -> R {
    let strings: [UnsafeMutablePointer<CChar>?] =
      entries.map { bytes in
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (index, byte) in bytes.enumerated() { copy[index] = CChar(bitPattern: byte) }
        copy[bytes.count] = 0
        return copy
      } + [nil]
    defer { for string in strings { string?.deallocate() } }
    return strings.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return body([nil]) }
      return body(base)
    }
  }

  @Test(
    arguments: [
      ["HOME=/home/me", "LANG=en_US.UTF-8", "PATH=/usr/bin:/bin"],
      ["A=1", "A=2", "B=", "=x", "NOEQUALS", "C=d=e", "", "=", "==", "D==f"],
      ["É=é", "E\u{301}=decomposed", "€=€uro", "👩‍👩‍👧=family", "emoji=🇫🇷"],
      ["SPACE = x ", " LEAD=1", "TAB\t=\t"],
    ].map { $0.map { Array($0.utf8) } } + [
      [
        [0x41, 0xFF, 0x3D, 0x62], [0x43, 0x3D, 0xE2, 0x82], [0xC3, 0x3D, 0x31], [0x3D, 0xFF],
        [0x44, 0x3D, 0xF0, 0x9F, 0x98], [0xFF, 0x3D, 0x31], [0xEF, 0xBF, 0xBD, 0x3D, 0x32],
      ]
    ])
  func environmentBytesAnswerAsItsCharacters(_ entries: [[UInt8]]) {
    let parsed = Self.withEnviron(entries) { CommandContext.environment(fromEntries: $0) }
    expectEqual(parsed, Self.characterLevelEnvironment(entries))
    expect(!parsed.isEmpty)
  }

  @Test func anEqualsSignWithACombiningMarkStillSplitsTheEntry() {
    // One character `=\u{301}` to the old split, which skipped the entry; `getenv` splits bytes.
    let entries = [Array("B=\u{301}x".utf8), Array("E=".utf8)]
    let parsed = Self.withEnviron(entries) { CommandContext.environment(fromEntries: $0) }
    expectEqual(parsed, ["B": "\u{301}x", "E": ""])
    expect(Self.withEnviron([]) { CommandContext.environment(fromEntries: $0) }.isEmpty)
  }

  @Test func theDefaultCoinSourcesAreTheChainJoined() {
    expectEqual(ConfigKey.defaultCoinSources, "coingecko,coinbase,kraken")
  }
}
