/// The one place JSON coders are configured, so every file and every `--json`
/// document uses the same conventions.
public enum JSONCoders {
  /// A decoder whose dates accept ISO 8601 with or without fractional seconds.
  public static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      let text = try container.decode(String.self)
      guard let date = ISO8601.parse(text) else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "expected an ISO 8601 date, found '\(text)'")
      }
      return date
    }
    return decoder
  }

  /// An encoder with sorted keys, unescaped slashes and ISO 8601 UTC dates
  /// (whole seconds, `Z`).
  public static func encoder(pretty: Bool = false) -> JSONEncoder {
    let encoder = JSONEncoder()
    var formatting: JSONEncoder.OutputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    if pretty { formatting.insert(.prettyPrinted) }
    encoder.outputFormatting = formatting
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(ISO8601.format(date))
    }
    encoder.nonConformingFloatEncodingStrategy = .throw
    return encoder
  }
}

/// ISO 8601 parsing and formatting that does not depend on the machine's
/// locale or time zone.
public enum ISO8601 {
  /// The first and last instants ``format(_:)`` writes as they are:
  /// 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
  static let formattable: ClosedRange<Double> =
    Double(Day.earliest.daysSinceEpoch) * 86_400...Double(Day.latest.daysSinceEpoch + 1) * 86_400 - 1

  /// Formats `date` as `YYYY-MM-DDTHH:MM:SSZ` in UTC.
  ///
  /// Total: an instant outside ``formattable`` (`±1e300` s, infinity) is
  /// written as the nearest end of it, and `NaN` as the first.
  public static func format(_ date: Date) -> String {
    let raw = date.timeIntervalSince1970.rounded(.down)
    let clamped =
      raw.isNaN
      ? formattable.lowerBound : min(max(raw, formattable.lowerBound), formattable.upperBound)
    let seconds = Int(clamped)
    let day = Day(daysSinceEpoch: Int((clamped / 86_400).rounded(.down)))
    let secondOfDay = seconds - day.daysSinceEpoch * 86_400
    return day.description + "T" + NumberText.padded(secondOfDay / 3600, width: 2) + ":"
      + NumberText.padded(secondOfDay / 60 % 60, width: 2) + ":"
      + NumberText.padded(secondOfDay % 60, width: 2) + "Z"
  }

  /// `YYYY-MM-DDTHH:MM:SSZ`, the form ``format(_:)`` writes (every cache
  /// entry's dates), read without a calendar: a warm command's dates cost
  /// next to nothing. Nil for any other form.
  static func parseWritten(utf8: some Collection<UInt8>) -> Date? {
    let bytes = Array(utf8)
    guard bytes.count == 20, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
      bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z"),
      let day = Day(utf8: bytes.prefix(10))
    else { return nil }
    func number(_ at: Int) -> Int? {
      let (high, low) = (bytes[at], bytes[at + 1])
      guard (48...57).contains(high), (48...57).contains(low) else { return nil }
      return Int(high - 48) * 10 + Int(low - 48)
    }
    guard let hours = number(11), let minutes = number(14), let seconds = number(17),
      hours < 24, minutes < 60, seconds < 60
    else { return nil }
    return Date(
      timeIntervalSince1970: Double(day.daysSinceEpoch * 86_400 + hours * 3600 + minutes * 60 + seconds))
  }

  /// Parses ISO 8601 date-times with or without fractional seconds and with
  /// `Z` or a numeric offset, and plain `YYYY-MM-DD` dates (as midnight UTC);
  /// `nil` for anything else, including instants outside ``formattable``.
  public static func parse(_ text: String) -> Date? {
    if let day = Day(text) { return day.start }
    if let date = parseWritten(utf8: text.utf8) { return date }
    guard text.utf8.count <= 64 else { return nil }
    let full = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    guard let date = (try? full.parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text)),
      formattable.contains(date.timeIntervalSince1970)
    else { return nil }
    return date
  }
}
