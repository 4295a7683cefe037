/// An optional that encodes `nil` as an explicit JSON `null` instead of
/// leaving the key out, so `--json` documents always carry every key of
/// their contract (`"changePercent": null`).
@propertyWrapper
public struct NullEncoded<Value> {
  /// The value.
  public var wrappedValue: Value?

  /// Wraps `wrappedValue`.
  public init(wrappedValue: Value?) {
    self.wrappedValue = wrappedValue
  }
}

extension NullEncoded: Encodable where Value: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let wrappedValue {
      try container.encode(wrappedValue)
    } else {
      try container.encodeNil()
    }
  }
}

extension NullEncoded: Decodable where Value: Decodable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
  }
}

extension NullEncoded: Equatable where Value: Equatable {}
extension NullEncoded: Hashable where Value: Hashable {}
extension NullEncoded: Sendable where Value: Sendable {}
