import Testing

// `expect`, `expectEqual`, `expectContains` and `require`: `#expect` and `#require` for the
// common cases, as plain functions. Each `#expect` is a macro expansion the compiler
// type-checks and compiles on its own (a generic call with closures, three source buffers):
// about 20 ms of compile per use in this project's test modules, against about 2 ms for a
// call of these (Tests/README.md, "Compile time"). They give up `#expect`'s capture of each
// subexpression: `expectEqual` reports both values, `expectContains` the text and the part,
// and `expect` the caller's line and comment. `#expect` stays where its capture says more
// than the values would, and for `throws:`.

/// Records a failed expectation at the caller's line when `condition` is false, with
/// `comment` when there is one.
public func expect(
  _ condition: Bool, _ comment: String = "",
  fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) {
  guard !condition else { return }
  let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  Issue.record(failure("Expectation failed", comment), sourceLocation: location)
}

/// Records a failed expectation at the caller's line when `actual` is not equal to
/// `expected`, naming both values (as Swift Testing describes them) and `comment`.
public func expectEqual<Value: Equatable>(
  _ actual: Value, _ expected: Value, _ comment: String = "",
  fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) {
  guard actual != expected else { return }
  let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  let values = "\(String(describingForTest: actual)) == \(String(describingForTest: expected))"
  Issue.record(failure("Expectation failed: \(values)", comment), sourceLocation: location)
}

/// Records a failed expectation at the caller's line when `text` does not contain `part`,
/// showing both (so a failed check of a command's output shows the output). Containment is
/// the standard library's, by characters: a `part` that starts with "\n" is not inside a
/// "\r\n". An empty `part`, which any text contains, is a failure too: it checks nothing.
public func expectContains(
  _ text: some StringProtocol, _ part: some StringProtocol, _ comment: String = "",
  fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) {
  guard part.isEmpty || !text.contains(part) else { return }
  let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  let (whole, missing) = (String(describingForTest: String(text)), String(describingForTest: String(part)))
  Issue.record(
    failure("Expectation failed: \(whole) does not contain \(missing)", comment), sourceLocation: location)
}

private func failure(_ what: String, _ comment: String) -> Comment {
  Comment(rawValue: comment.isEmpty ? what : "\(what): \(comment)")
}

/// `try #require(value)` as a plain function: `value` unwrapped, or, when it is nil, a
/// ``RequirementFailure`` thrown to end the test (the test's one issue, naming this line).
public func require<Value>(
  _ value: Value?, _ comment: String = "",
  fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) throws -> Value {
  guard let value else {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    throw RequirementFailure(what: "value is nil", comment: comment, sourceLocation: location)
  }
  return value
}

/// `try #require(condition)` as a plain function: returns when `condition` holds, and
/// otherwise throws a ``RequirementFailure`` to end the test.
public func require(
  _ condition: Bool, _ comment: String = "",
  fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) throws {
  guard !condition else { return }
  let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  throw RequirementFailure(what: "condition is false", comment: comment, sourceLocation: location)
}

/// A failed `require`: thrown, not recorded, so that the test reports it once, as the error
/// it ended with, with this text and the requirement's place.
public struct RequirementFailure: Error, CustomStringConvertible {
  /// What did not hold: "value is nil" or "condition is false".
  public let what: String
  /// The caller's comment, empty when it gave none.
  public let comment: String
  /// Where the requirement was written.
  public let sourceLocation: SourceLocation

  public var description: String {
    let place = "\(sourceLocation.fileName):\(sourceLocation.line):\(sourceLocation.column)"
    return "Requirement failed at \(place): \(what)" + (comment.isEmpty ? "" : ": \(comment)")
  }
}
