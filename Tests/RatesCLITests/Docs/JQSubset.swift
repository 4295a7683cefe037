import Foundation

/// The part of jq the documentation's examples use, evaluated without jq: paths (`.a.b`,
/// `.[0]`, `.a[]`), pipes, `select(<path> ==|!= <literal>)` and object construction
/// (`{symbol, price: .quotes[0].rate}`), with jq's errors for indexing the wrong kind of
/// value ("Cannot index array with string").
///
/// CI machines need not have jq installed; where jq is installed, ``DocsExampleTests``
/// checks that this agrees with it on every example. A filter outside the subset is an
/// error here, so an example stays within what both can run.
enum JQSubset {
  struct Failure: Error, Equatable, CustomStringConvertible {
    let description: String
  }

  /// The values `filter` produces from the JSON document `input`.
  static func run(_ filter: String, on input: Any) throws -> [Any] {
    var values = [input]
    for stage in try split(filter, on: "|") {
      values = try values.flatMap { try evaluate(stage.trimmingCharacters(in: .whitespaces), $0) }
    }
    return values
  }

  /// `values` as jq prints them: one per line, strings raw with `-r`.
  static func text(_ values: [Any], raw: Bool) -> String {
    values.map { value in
      if raw, let string = value as? String { return string }
      let data = try? JSONSerialization.data(
        withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])
      return data.map { String(decoding: $0, as: UTF8.self) } ?? "?"
    }.joined(separator: "\n")
  }

  /// Whether `value` is or holds a JSON null.
  static func holdsNull(_ value: Any) -> Bool {
    switch value {
    case is NSNull: true
    case let object as [String: Any]: object.values.contains(where: holdsNull)
    case let array as [Any]: array.contains(where: holdsNull)
    default: false
    }
  }

  // MARK: - Terms

  static func evaluate(_ term: String, _ input: Any) throws -> [Any] {
    if term.hasPrefix("select(") && term.hasSuffix(")") {
      return try select(String(term.dropFirst(7).dropLast()), input)
    }
    if term.hasPrefix("{") && term.hasSuffix("}") {
      return [try object(String(term.dropFirst().dropLast()), input)]
    }
    guard term.hasPrefix(".") else { throw Failure(description: "not in the subset: \(term)") }
    return try path(term, input)
  }

  static func select(_ condition: String, _ input: Any) throws -> [Any] {
    for op in ["!=", "=="] {
      let sides = condition.components(separatedBy: op)
      guard sides.count == 2 else { continue }
      let left = try run(sides[0].trimmingCharacters(in: .whitespaces), on: input)
      let literal = try literalValue(sides[1].trimmingCharacters(in: .whitespaces))
      let equal = left.count == 1 && isEqual(left[0], literal)
      return (op == "==") == equal ? [input] : []
    }
    throw Failure(description: "not in the subset: select(\(condition))")
  }

  static func object(_ body: String, _ input: Any) throws -> [String: Any] {
    var result: [String: Any] = [:]
    for member in try split(body, on: ",") {
      let parts = member.split(separator: ":", maxSplits: 1).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      let key = parts[0]
      let values = try run(parts.count == 2 ? parts[1] : "." + key, on: input)
      guard values.count == 1 else {
        throw Failure(description: "'\(member)' gives \(values.count) values")
      }
      result[key] = values[0]
    }
    return result
  }

  /// `.a.b[0][]`: each step applied to every value so far.
  static func path(_ term: String, _ input: Any) throws -> [Any] {
    var values = [input]
    var rest = Substring(term)
    while !rest.isEmpty {
      if rest.hasPrefix("[") {
        guard let close = rest.firstIndex(of: "]") else { throw Failure(description: "unclosed [") }
        let inside = rest[rest.index(after: rest.startIndex)..<close]
        values = try values.flatMap { try index($0, String(inside)) }
        rest = rest[rest.index(after: close)...]
      } else if rest.hasPrefix(".") {
        rest = rest.dropFirst()
        let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        rest = rest.dropFirst(name.count)
        if !name.isEmpty { values = try values.map { try field($0, String(name)) } }
      } else {
        throw Failure(description: "not in the subset: \(term)")
      }
    }
    return values
  }

  static func field(_ value: Any, _ name: String) throws -> Any {
    if value is NSNull { return NSNull() }
    guard let object = value as? [String: Any] else {
      throw Failure(description: "Cannot index \(kind(value)) with \"\(name)\"")
    }
    return object[name] ?? NSNull()
  }

  static func index(_ value: Any, _ inside: String) throws -> [Any] {
    if inside.isEmpty {
      if let array = value as? [Any] { return array }
      if let object = value as? [String: Any] { return object.keys.sorted().compactMap { object[$0] } }
      throw Failure(description: "Cannot iterate over \(kind(value))")
    }
    if value is NSNull { return [NSNull()] }
    guard let position = Int(inside) else { throw Failure(description: "not in the subset: [\(inside)]") }
    guard let array = value as? [Any] else {
      throw Failure(description: "Cannot index \(kind(value)) with number")
    }
    let at = position < 0 ? array.count + position : position
    return [array.indices.contains(at) ? array[at] : NSNull()]
  }

  // MARK: - Values

  static func literalValue(_ text: String) throws -> Any {
    guard let data = text.data(using: .utf8),
      let value = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
    else { throw Failure(description: "not a literal: \(text)") }
    return value
  }

  static func isEqual(_ left: Any, _ right: Any) -> Bool {
    (left as? NSObject)?.isEqual(right as? NSObject) ?? false
  }

  static func kind(_ value: Any) -> String {
    switch value {
    case is [Any]: "array"
    case is [String: Any]: "object"
    case is String: "string"
    case is NSNull: "null"
    case is Bool: "boolean"
    default: "number"
    }
  }

  /// `text` split on `separator` outside quotes, brackets, braces and parentheses.
  static func split(_ text: String, on separator: Character) throws -> [String] {
    var parts: [String] = []
    var current = ""
    var depth = 0
    var quoted = false
    for character in text {
      if character == "\"" { quoted.toggle() }
      if !quoted {
        if "([{".contains(character) { depth += 1 }
        if ")]}".contains(character) { depth -= 1 }
        if character == separator && depth == 0 {
          parts.append(current)
          current = ""
          continue
        }
      }
      current.append(character)
    }
    guard depth == 0, !quoted else { throw Failure(description: "unbalanced: \(text)") }
    parts.append(current)
    return parts
  }
}
