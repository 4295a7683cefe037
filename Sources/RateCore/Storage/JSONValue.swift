/// Any JSON value, kept as read, so that members this version of `rates` does not know (added
/// by a newer version) survive a rewrite of the file they came from.
///
/// Integers that fit in 64 bits are kept exactly; other numbers as `Double`.
public enum JSONValue: Codable, Equatable, Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A whole number that fits in 64 bits.
  case integer(Int64)
  /// Any other number.
  case number(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object.
  case object([String: JSONValue])

  /// Decodes whatever value is there.
  public init(from decoder: any Decoder) throws {
    if var array = try? decoder.unkeyedContainer() {
      var values: [JSONValue] = []
      while !array.isAtEnd { values.append(try array.decode(JSONValue.self)) }
      self = .array(values)
      return
    }
    if let object = try? decoder.container(keyedBy: UnknownMembers.Key.self) {
      var members: [String: JSONValue] = [:]
      for key in object.allKeys {
        members[key.stringValue] = try object.decode(JSONValue.self, forKey: key)
      }
      self = .object(members)
      return
    }
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      self = .null
    } else if let value = try? single.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? single.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? single.decode(Double.self) {
      self = .number(value)
    } else {
      self = .string(try single.decode(String.self))
    }
  }

  /// Encodes the value as it was read.
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var single = encoder.singleValueContainer()
      try single.encodeNil()
    case .bool(let value): try value.encode(to: encoder)
    case .integer(let value): try value.encode(to: encoder)
    case .number(let value): try value.encode(to: encoder)
    case .string(let value): try value.encode(to: encoder)
    case .array(let values): try values.encode(to: encoder)
    case .object(let members): try members.encode(to: encoder)
    }
  }
}

/// Any member name of a JSON object, for members named at run time.
public struct MemberName: CodingKey, Sendable {
  /// The member's name.
  public var stringValue: String
  /// Never an index: objects only.
  public var intValue: Int? { nil }
  /// The member named `string`.
  public init(_ string: String) { stringValue = string }
  /// The member named `stringValue`.
  public init?(stringValue: String) { self.stringValue = stringValue }
  /// None: objects only.
  public init?(intValue: Int) { nil }
}

/// Reading and writing the members of a JSON object that a type does not know.
enum UnknownMembers {
  /// Any member name.
  typealias Key = MemberName

  /// The members of the object being decoded whose names are not in `known`.
  static func decode(from decoder: any Decoder, known: Set<String>) throws -> [String: JSONValue] {
    let container = try decoder.container(keyedBy: Key.self)
    var unknown: [String: JSONValue] = [:]
    for key in container.allKeys where !known.contains(key.stringValue) {
      unknown[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
    }
    return unknown
  }

  /// Writes `members` into the object being encoded, leaving out any name in `known` (a known
  /// member always wins over a stale copy).
  static func encode(_ members: [String: JSONValue], to encoder: any Encoder, known: Set<String>)
    throws
  {
    guard !members.isEmpty else { return }
    var container = encoder.container(keyedBy: Key.self)
    for (name, value) in members where !known.contains(name) {
      try container.encode(value, forKey: Key(name))
    }
  }
}
