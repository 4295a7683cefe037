import Foundation

/// The ```shape blocks of docs/json.md, parsed, and a checker of JSON values against them.
struct JSONShapes {
  /// A type in the notation of docs/json.md.
  indirect enum Kind: Equatable {
    case string, int, number, bool, date, day, period, any, null
    case array(Kind)
    case either([Kind])
    case shape(String)
  }

  /// One key of a shape.
  struct Field {
    var kind: Kind
    var optional: Bool
  }

  var shapes: [String: [(String, Field)]] = [:]

  /// The shapes of docs/json.md in this checkout.
  static func documented() throws -> JSONShapes {
    let root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    return try parse(String(contentsOf: root.appendingPathComponent("docs/json.md"), encoding: .utf8))
  }

  static func parse(_ markdown: String) throws -> JSONShapes {
    var result = JSONShapes()
    var pending: [String: [String]] = [:]
    var current: String?
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```shape ") {
        current = String(line.dropFirst("```shape ".count)).trimmingCharacters(in: .whitespaces)
        pending[current ?? ""] = []
      } else if line.hasPrefix("```") {
        current = nil
      } else if let name = current, !line.isEmpty {
        pending[name, default: []].append(String(line))
      }
    }
    func fields(of name: String) -> [(String, Field)] {
      (pending[name] ?? []).flatMap { line -> [(String, Field)] in
        if line.hasPrefix("...") { return fields(of: String(line.dropFirst(3))) }
        let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2 else { return [] }
        let optional = parts[0].hasSuffix("?")
        let key = optional ? String(parts[0].dropLast()) : parts[0]
        return [(key, Field(kind: kind(parts[1]), optional: optional))]
      }
    }
    for name in pending.keys { result.shapes[name] = fields(of: name) }
    return result
  }

  static func kind(_ text: String) -> Kind {
    let options = text.split(separator: "|").map(String.init)
    if options.count > 1 { return .either(options.map(kind)) }
    if text.hasPrefix("[") && text.hasSuffix("]") { return .array(kind(String(text.dropFirst().dropLast()))) }
    let simple: [String: Kind] = [
      "string": .string, "int": .int, "number": .number, "bool": .bool, "date": .date, "day": .day,
      "period": .period, "any": .any, "null": .null,
    ]
    return simple[text] ?? .shape(text)
  }

  /// What is wrong with `value` as a `kind`, one line per problem, each naming its path.
  func check(_ value: Any, against kind: Kind, at path: String) -> [String] {
    switch kind {
    case .either(let kinds):
      return kinds.contains { check(value, against: $0, at: path).isEmpty }
        ? [] : ["\(path): \(describe(value)) is none of \(kinds)"]
    case .array(let element):
      guard let array = value as? [Any] else { return ["\(path): \(describe(value)) is not an array"] }
      return array.enumerated().flatMap { check($1, against: element, at: "\(path)[\($0)]") }
    case .shape(let name):
      return checkObject(value, shape: name, at: path)
    default:
      return matches(value, kind) ? [] : ["\(path): \(describe(value)) is not \(kind)"]
    }
  }

  func checkObject(_ value: Any, shape name: String, at path: String) -> [String] {
    guard let fields = shapes[name] else { return ["\(path): no shape \(name) in docs/json.md"] }
    guard let object = value as? [String: Any] else { return ["\(path): \(describe(value)) is not an object"] }
    var problems: [String] = []
    for (key, field) in fields {
      if let member = object[key] {
        problems += check(member, against: field.kind, at: "\(path).\(key)")
      } else if !field.optional {
        problems.append("\(path).\(key) is missing")
      }
    }
    let known = Set(fields.map(\.0))
    for key in object.keys.sorted() where !known.contains(key) {
      problems.append("\(path).\(key) is not in shape \(name)")
    }
    return problems
  }

  // Made once: a regex literal is parsed again each time it is evaluated (Regex is not
  // Sendable, but its one shared state, the compiled program, is made once atomically).
  nonisolated(unsafe) static let dayPattern = /\d{4}-\d{2}-\d{2}/
  nonisolated(unsafe) static let datePattern = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/

  func matches(_ value: Any, _ kind: Kind) -> Bool {
    // JSONSerialization gives booleans the Objective-C type `c` (char), numbers never.
    let isBool = (value as? NSNumber).map { String(cString: $0.objCType) == "c" } ?? false
    switch kind {
    case .string: return value is String
    case .bool: return isBool
    case .number: return value is NSNumber && !isBool
    case .int: return !isBool && (value as? NSNumber).map { $0.doubleValue == $0.doubleValue.rounded() } == true
    case .null: return value is NSNull
    case .any: return true
    case .period: return ["24h", "1d"].contains(value as? String ?? "")
    case .day: return (value as? String)?.wholeMatch(of: Self.dayPattern) != nil
    case .date: return (value as? String)?.wholeMatch(of: Self.datePattern) != nil
    default: return false
    }
  }

  func describe(_ value: Any) -> String {
    let text = "\(value)"
    return text.count > 60 ? String(text.prefix(60)) + "…" : text
  }
}
