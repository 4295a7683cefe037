import Foundation
import RateCore
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RatesCLI

@Suite struct ArgumentScannerTests {
  // MARK: Interleaving and positionals

  @Test func optionsAndPositionalsInterleave() throws {
    var scanner = ArgumentScanner(["history", "BTC", "--days", "7", "EUR"])
    let days = try scanner.option("--days")
    let positionals = scanner.positionals()
    expectEqual(days, "7")
    expectEqual(positionals, ["history", "BTC", "EUR"])
    try scanner.finish()
  }

  @Test func positionalReturnsOneAtATimeThenNil() throws {
    var scanner = ArgumentScanner(["--json", "convert", "10", "USD"])
    let json = try scanner.flag("--json")
    let first = scanner.positional()
    let second = scanner.positional()
    let third = scanner.positional()
    let fourth = scanner.positional()
    expect(json)
    expectEqual(first, "convert")
    expectEqual(second, "10")
    expectEqual(third, "USD")
    expectEqual(fourth, nil)
    try scanner.finish()
  }

  @Test func positionalSkipsOptionsAndLeavesThemForFinish() {
    var scanner = ArgumentScanner(["--bogus", "BTC"])
    let first = scanner.positional()
    expectEqual(first, "BTC")
    #expect(throws: UsageError.unknownOption("--bogus")) { try scanner.finish() }
  }

  @Test func emptyArgumentsFinishCleanly() throws {
    var scanner = ArgumentScanner([])
    let flag = try scanner.flag("--json")
    let option = try scanner.option("--days")
    let positional = scanner.positional()
    expect(!flag)
    expectEqual(option, nil)
    expectEqual(positional, nil)
    try scanner.finish()
  }

  @Test func loneDashIsAPositional() throws {
    var scanner = ArgumentScanner(["import", "-"])
    let positionals = scanner.positionals()
    expectEqual(positionals, ["import", "-"])
    try scanner.finish()
  }

  @Test func emptyStringIsAPositional() throws {
    var scanner = ArgumentScanner([""])
    let positional = scanner.positional()
    expectEqual(positional, "")
    try scanner.finish()
  }

  // MARK: The `--` terminator

  @Test func everythingAfterTerminatorIsPositional() throws {
    var scanner = ArgumentScanner(["show", "--", "--json", "-h", "--", "--days=7"])
    let json = try scanner.flag("--json")
    let days = try scanner.option("--days")
    expect(!json)
    expectEqual(days, nil)
    let positionals = scanner.positionals()
    expectEqual(positionals, ["show", "--json", "-h", "--", "--days=7"])
    try scanner.finish()
  }

  @Test func terminatorAloneIsNotLeftOver() throws {
    let scanner = ArgumentScanner(["--"])
    try scanner.finish()
  }

  @Test func optionsBeforeTerminatorStillWork() throws {
    var scanner = ArgumentScanner(["--days", "7", "--", "-5"])
    let days = try scanner.option("--days")
    let rest = scanner.positionals()
    expectEqual(days, "7")
    expectEqual(rest, ["-5"])
  }

  @Test func leftoverAfterTerminatorIsUnexpected() {
    let scanner = ArgumentScanner(["--", "--json"])
    #expect(throws: UsageError.unexpectedArgument("--json")) { try scanner.finish() }
  }

  // MARK: Negative numbers

  @Test(arguments: ["-5", "-0", "-1.5", "-1.5e3", "-2E-4", "-3e+2", "-.5", "-5.", "-007"])
  func negativeNumbersArePositionals(number: String) throws {
    var scanner = ArgumentScanner(["convert", number, "USD", "EUR"])
    let json = try scanner.flag("--json")
    let positionals = scanner.positionals()
    expect(!json)
    expectEqual(positionals, ["convert", number, "USD", "EUR"])
    try scanner.finish()
  }

  @Test(arguments: ["-e5", "-1e", "-1.5.2", "-.", "-1x", "-inf", "-nan", "-0x10", "--5", "-1e+"])
  func nearNumbersAreOptions(token: String) {
    var scanner = ArgumentScanner(["convert", token])
    let positionals = scanner.positionals()
    expectEqual(positionals, ["convert"])
    #expect(throws: UsageError.unknownOption(token)) { try scanner.finish() }
  }

  @Test func negativeNumberCanBeAnOptionValue() throws {
    var scanner = ArgumentScanner(["--threshold", "-5", "--offset=-1.5"])
    let threshold = try scanner.option("--threshold")
    let offset = try scanner.option("--offset")
    expectEqual(threshold, "-5")
    expectEqual(offset, "-1.5")
    try scanner.finish()
  }

  @Test func dashValueNeedsEqualsForm() throws {
    var scanner = ArgumentScanner(["--provider=-x"])
    let provider = try scanner.option("--provider")
    expectEqual(provider, "-x")
    var separate = ArgumentScanner(["--provider", "-x"])
    #expect(throws: UsageError.missingValue(option: "--provider")) {
      _ = try separate.option("--provider")
    }
  }

  // MARK: Flags

  @Test func flagByAnyName() throws {
    for arguments in [["--json"], ["-j"], ["-j", "--json"]] {
      var scanner = ArgumentScanner(arguments)
      let json = try scanner.flag("--json", "-j")
      expect(json, "\(arguments)")
      try scanner.finish()
    }
  }

  @Test func absentFlagIsFalseAndLeavesOthers() throws {
    var scanner = ArgumentScanner(["--verbose"])
    let json = try scanner.flag("--json")
    expect(!json)
    #expect(throws: UsageError.unknownOption("--verbose")) { try scanner.finish() }
  }

  @Test(arguments: [("--json=x", "--json"), ("--json=", "--json"), ("-j=1", "-j")])
  func flagWithValueThrows(token: String, name: String) {
    var scanner = ArgumentScanner(["list", token])
    #expect(throws: UsageError.flagTakesNoValue(option: name)) {
      _ = try scanner.flag("--json", "-j")
    }
  }

  @Test func flagDoesNotTakeTheNextToken() throws {
    var scanner = ArgumentScanner(["--json", "BTC"])
    let json = try scanner.flag("--json")
    let base = scanner.positional()
    expect(json)
    expectEqual(base, "BTC")
    try scanner.finish()
  }

  @Test func combinedShortFlagsAreNotSplit() throws {
    var scanner = ArgumentScanner(["-jv"])
    let j = try scanner.flag("-j")
    let v = try scanner.flag("-v")
    expect(!j)
    expect(!v)
    #expect(throws: UsageError.unknownOption("-jv")) { try scanner.finish() }
  }

  @Test func registeredDashNameMatchesWhole() throws {
    var scanner = ArgumentScanner(["-abc"])
    let abc = try scanner.flag("-abc")
    expect(abc)
    try scanner.finish()
  }

  @Test func namesAreCaseSensitive() throws {
    var scanner = ArgumentScanner(["--JSON", "--Days", "7"])
    let json = try scanner.flag("--json")
    let days = try scanner.option("--days")
    expect(!json)
    expectEqual(days, nil)
    #expect(throws: UsageError.unknownOption("--JSON")) { try scanner.finish() }
  }

  @Test func prefixesDoNotMatch() throws {
    var scanner = ArgumentScanner(["--jso", "--jsonx"])
    let json = try scanner.flag("--json")
    expect(!json)
    #expect(throws: UsageError.unknownOption("--jso")) { try scanner.finish() }
  }

  // MARK: Options

  @Test(arguments: [["--days", "7"], ["--days=7"], ["-d", "7"], ["-d=7"]])
  func optionSpellings(arguments: [String]) throws {
    var scanner = ArgumentScanner(arguments)
    let days = try scanner.option("--days", "-d")
    expectEqual(days, "7")
    try scanner.finish()
  }

  @Test func optionValueMayContainEquals() throws {
    var scanner = ArgumentScanner(["--filter=a=b", "--note", "x=y"])
    let filter = try scanner.option("--filter")
    let note = try scanner.option("--note")
    expectEqual(filter, "a=b")
    expectEqual(note, "x=y")
    try scanner.finish()
  }

  @Test func lastOptionWins() throws {
    var scanner = ArgumentScanner(["--days", "7", "BTC", "-d=30", "--days", "90"])
    let days = try scanner.option("--days", "-d")
    let base = scanner.positional()
    expectEqual(days, "90")
    expectEqual(base, "BTC")
    try scanner.finish()
  }

  @Test func repeatableOptionsInOrder() throws {
    var scanner = ArgumentScanner(["--alert", "BTC>1", "x", "-a=ETH<2", "--alert", "SOL>3"])
    let alerts = try scanner.options("--alert", "-a")
    let rest = scanner.positionals()
    expectEqual(alerts, ["BTC>1", "ETH<2", "SOL>3"])
    expectEqual(rest, ["x"])
    try scanner.finish()
  }

  @Test func absentRepeatableOptionIsEmpty() throws {
    var scanner = ArgumentScanner(["BTC"])
    let alerts = try scanner.options("--alert")
    expect(alerts.isEmpty)
  }

  @Test(arguments: [
    ["--days"],
    ["--days", "--json"],
    ["--days", "-j"],
    ["--days", "--"],
    ["--days", "--", "7"],
    ["--days="],
    ["--days", ""],
    ["BTC", "--days"],
  ])
  func missingValue(arguments: [String]) {
    var scanner = ArgumentScanner(arguments)
    #expect(throws: UsageError.missingValue(option: "--days")) {
      _ = try scanner.option("--days")
    }
  }

  @Test func missingValueNamesTheSpellingUsed() {
    var scanner = ArgumentScanner(["-d"])
    #expect(throws: UsageError.missingValue(option: "-d")) {
      _ = try scanner.options("--days", "-d")
    }
  }

  @Test func valueMustBeAdjacentInTheOriginalArguments() throws {
    // Removing `--json` must not make `7` look like the value of `--days`.
    var scanner = ArgumentScanner(["--days", "--json", "7"])
    let json = try scanner.flag("--json")
    expect(json)
    #expect(throws: UsageError.missingValue(option: "--days")) {
      _ = try scanner.option("--days")
    }
  }

  @Test func optionDoesNotSwallowAnOptionAfterIt() throws {
    var scanner = ArgumentScanner(["--provider", "--days", "7"])
    #expect(throws: UsageError.missingValue(option: "--provider")) {
      _ = try scanner.option("--provider")
    }
    let days = try scanner.option("--days")
    expectEqual(days, "7")
  }

  @Test func helpIsNotTakenAsAValueButErrorsAsMissing() {
    var scanner = ArgumentScanner(["--days", "--help"])
    #expect(throws: UsageError.missingValue(option: "--days")) {
      _ = try scanner.option("--days")
    }
  }

  // MARK: Typed options

  @Test func typedOptionParses() throws {
    var scanner = ArgumentScanner(["--days", "30"])
    let days = try scanner.option("--days", "-d", expected: "a whole number") { Int($0) }
    expectEqual(days, 30)
    try scanner.finish()
  }

  @Test func typedOptionAbsentIsNil() throws {
    var scanner = ArgumentScanner(["BTC"])
    let days = try scanner.option("--days", expected: "a whole number") { Int($0) }
    expectEqual(days, nil)
  }

  @Test func typedOptionInvalidNamesTheSpellingUsed() {
    var scanner = ArgumentScanner(["-d", "abc"])
    let expected = UsageError.invalidValue(
      option: "-d", value: "abc", expected: "a whole number from 1 to 365")
    #expect(throws: expected) {
      _ = try scanner.option("--days", "-d", expected: "a whole number from 1 to 365") {
        Int($0).flatMap { (1...365).contains($0) ? $0 : nil }
      }
    }
  }

  @Test func typedOptionChecksEveryOccurrence() {
    var scanner = ArgumentScanner(["--days=abc", "--days", "7"])
    #expect(throws: UsageError.invalidValue(option: "--days", value: "abc", expected: "a number")) {
      _ = try scanner.option("--days", expected: "a number") { Int($0) }
    }
  }

  @Test func typedOptionMissingValueComesFirst() {
    var scanner = ArgumentScanner(["--days"])
    #expect(throws: UsageError.missingValue(option: "--days")) {
      _ = try scanner.option("--days", expected: "a number") { Int($0) }
    }
  }

  @Test func failedTypedOptionLeavesScannerUnchanged() throws {
    var scanner = ArgumentScanner(["--days", "abc"])
    #expect(throws: UsageError.self) {
      _ = try scanner.option("--days", expected: "a whole number") { Int($0) }
    }
    let raw = try scanner.option("--days")
    expectEqual(raw, "abc")
  }

  // MARK: finish()

  @Test func finishReportsUnknownOptionBeforeEarlierPositional() {
    let scanner = ArgumentScanner(["extra", "--x", "--y"])
    #expect(throws: UsageError.unknownOption("--x")) { try scanner.finish() }
  }

  @Test func finishReportsUnknownOptionByName() {
    let scanner = ArgumentScanner(["--x=1"])
    #expect(throws: UsageError.unknownOption("--x")) { try scanner.finish() }
  }

  @Test func finishReportsFirstLeftoverPositional() {
    var scanner = ArgumentScanner(["latest", "BTC", "EUR"])
    _ = scanner.positional()
    #expect(throws: UsageError.unexpectedArgument("BTC")) { try scanner.finish() }
  }

  @Test func unknownOptionValueIsLeftAsPositional() {
    // An unknown option cannot know it takes a value; finish names the option.
    var scanner = ArgumentScanner(["--bogus", "7"])
    let positionals = scanner.positionals()
    expectEqual(positionals, ["7"])
    #expect(throws: UsageError.unknownOption("--bogus")) { try scanner.finish() }
  }

  // MARK: Messages

  @Test(arguments: [
    (UsageError.unknownOption("--x"), "unknown option '--x'"),
    (.missingValue(option: "--days"), "missing value for '--days'"),
    (
      .invalidValue(option: "--days", value: "abc", expected: "a whole number from 1 to 365"),
      "the value 'abc' is invalid for '--days': expected a whole number from 1 to 365"
    ),
    (.missingArgument("base"), "missing argument <base>"),
    (.unexpectedArgument("foo"), "unexpected argument 'foo'"),
    (
      .unknownCommand("histroy", suggestion: "history"),
      "unknown command 'histroy' (did you mean 'history'?)"
    ),
    (.unknownCommand("xyz", suggestion: nil), "unknown command 'xyz'"),
    (.flagTakesNoValue(option: "--json"), "'--json' does not take a value"),
    (.invalid("the start day is after the end day"), "the start day is after the end day"),
  ])
  func message(error: UsageError, text: String) {
    expectEqual(error.errorDescription, text)
    expectEqual(error.localizedDescription, text)
  }

  @Test func errorsCompareByValue() {
    expect(
      UsageError.unknownCommand("a", suggestion: nil) != .unknownCommand("a", suggestion: "b"))
    expect(UsageError.missingValue(option: "-d") != .missingValue(option: "--days"))
  }
}

@Suite struct EditDistanceTests {
  @Test(arguments: [
    ("", "", 0),
    ("", "abc", 3),
    ("abc", "", 3),
    ("history", "history", 0),
    ("histroy", "history", 2),
    ("kitten", "sitting", 3),
    ("flaw", "lawn", 2),
    ("latest", "latset", 2),
    ("convert", "covert", 1),
    ("watch", "watcher", 2),
    ("History", "history", 1),
    ("€uro", "euro", 1),
  ])
  func distance(a: String, b: String, expected: Int) {
    expectEqual(EditDistance.distance(a, b), expected)
    expectEqual(EditDistance.distance(b, a), expected)
  }

  private let commands = ["latest", "history", "convert", "watch", "list", "cache"]

  @Test func suggestsTheClosestCommand() {
    expectEqual(EditDistance.suggestion(for: "histroy", in: commands), "history")
    expectEqual(EditDistance.suggestion(for: "conver", in: commands), "convert")
    expectEqual(EditDistance.suggestion(for: "History", in: commands), "history")
    expectEqual(EditDistance.suggestion(for: "HISTORY", in: commands), "history")
  }

  @Test func nothingCloseSuggestsNothing() {
    expectEqual(EditDistance.suggestion(for: "frobnicate", in: commands), nil)
    expectEqual(EditDistance.suggestion(for: "x", in: []), nil)
  }

  @Test func maxDistanceIsAThirdOfTheInputAtLeastOne() {
    // "lst" (3 characters): threshold 1, so "list" (1) but not "latest" (3).
    expectEqual(EditDistance.suggestion(for: "lst", in: commands), "list")
    // "wtch" (4 characters): threshold 1.
    expectEqual(EditDistance.suggestion(for: "wtch", in: commands), "watch")
    // "hstry" (5 characters): threshold 1, "history" is 2 away.
    expectEqual(EditDistance.suggestion(for: "hstry", in: commands), nil)
  }

  @Test func bestFirstThenCandidateOrder() {
    expectEqual(EditDistance.suggestion(for: "cat", in: ["cart", "cast", "cat", "cab"]), "cat")
    expectEqual(EditDistance.suggestion(for: "cot", in: ["cart", "cut", "cat"]), "cut")
  }

  @Test func optionNamesToo() {
    let options = ["--days", "--json", "--provider", "--no-color"]
    expectEqual(EditDistance.suggestion(for: "--dyas", in: options), "--days")
    expectEqual(EditDistance.suggestion(for: "--provder", in: options), "--provider")
  }
}

/// The scanner read by spelling, as these tests name options: commands read it through
/// their declarations (`TypedDeclarations.swift`), which pass the same names.
extension ArgumentScanner {
  fileprivate mutating func flag(_ names: String...) throws(UsageError) -> Bool {
    try flag(anyOf: names)
  }

  fileprivate mutating func option(_ names: String...) throws(UsageError) -> String? {
    try option(anyOf: names)
  }

  fileprivate mutating func options(_ names: String...) throws(UsageError) -> [String] {
    try options(anyOf: names)
  }

  fileprivate mutating func option<T>(
    _ names: String..., expected: String, parse: (String) -> T?
  ) throws(UsageError) -> T? {
    try typedOption(names, expected: expected, parse: parse)
  }
}
