import RatesExpectations
import Testing

/// `expect`, `expectEqual` and `expectContains` record a failure, at the caller's line,
/// exactly when `#expect` would, and say what failed; `require` throws where `#require` would.
/// (The four failures below are expected: `swift test` lists them as known issues.)
@Suite struct ExpectationsTests {
  @Test func aTrueConditionAndEqualValuesRecordNothing() {
    expect(true)
    expect(1 < 2, "never shown")
    expectEqual([1, 2], [1, 2])
    expectEqual(Optional("a"), "a")
    expectContains("rates 1.0", "1.0")
    expectContains("rates 1.0"[...], Substring("rates"))
  }

  @Test func aFalseConditionOrUnequalValuesAreAFailureAtTheCallersLine() {
    let line = #line + 2
    withKnownIssue {
      expect(1 > 2, "one is not more than two")
    } matching: { issue in
      issue.sourceLocation?.line == line && issue.sourceLocation?.fileID == #fileID
        && issue.comments.map(\.rawValue) == ["Expectation failed: one is not more than two"]
    }
    withKnownIssue {
      expectEqual(Optional("BTC/EUR"), "BTC/USD", "pair")
    } matching: { issue in
      issue.sourceLocation?.line == line + 6
        && issue.comments.map(\.rawValue) == [
          #"Expectation failed: "BTC/EUR" == "BTC/USD": pair"#
        ]
    }
  }

  @Test(arguments: ["2.0", ""])
  func aMissingOrEmptyPartIsAFailureShowingTheText(part: String) {
    withKnownIssue {
      expectContains("rates 1.0\n", part)
    } matching: { issue in
      issue.comments.map(\.rawValue) == ["Expectation failed: \"rates 1.0\n\" does not contain \"\(part)\""]
    }
  }

  @Test func requireGivesTheValueOrThrowsNamingItsPlace() throws {
    expectEqual(try require(Optional(3)), 3)
    try require(true)
    let line = #line + 1
    let failure = #expect(throws: RequirementFailure.self) { try require(Int?.none, "no rate") }
    expectEqual(failure?.sourceLocation.line, line)
    expectEqual(failure?.sourceLocation.fileName, "ExpectationsTests.swift")
    expect(failure?.description.hasPrefix("Requirement failed at ExpectationsTests.swift:\(line):") == true)
    expect(failure?.description.hasSuffix(": value is nil: no rate") == true, "\(String(describing: failure))")
    let condition = #expect(throws: RequirementFailure.self) { try require(1 > 2) }
    expect(condition?.description.hasSuffix(": condition is false") == true)
  }
}
