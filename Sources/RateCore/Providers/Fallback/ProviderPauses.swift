/// The rate-limit pauses of the providers, remembered across runs in a small
/// JSON file in the cache folder (`provider-pauses.json`: provider name →
/// the instant its pause ends), so the next command skips a provider that
/// answered 429 until its pause ends.
///
/// A missing, unreadable or hostile file is no pause (it is a cache: losing
/// it costs one more 429, never a wrong figure); an instant further ahead
/// than ``longestPause`` is capped.
public struct ProviderPauses: Sendable {
  /// The file's name in the cache folder.
  public static let fileName = "provider-pauses.json"
  /// The pause after a 429 without a usable `Retry-After`.
  public static let defaultPause: TimeInterval = 60
  /// The longest pause honoured, whatever a server or the file says.
  public static let longestPause: TimeInterval = 3_600

  let file: URL

  /// Pauses kept in `cacheFolder`.
  public init(cacheFolder: URL) {
    file = cacheFolder.appendingPathComponent(Self.fileName)
  }

  /// When `provider`'s pause ends, if it is paused at `now`.
  public func pausedUntil(_ provider: String, now: Date) -> Date? {
    guard let end = read()[provider], end > now else { return nil }
    return min(end, now.addingTimeInterval(Self.longestPause))
  }

  /// Remembers that `provider` is paused from `now` for `seconds` (the
  /// answer's `Retry-After`, else ``defaultPause``), capped at
  /// ``longestPause``. A file that cannot be written only loses the pause.
  public func pause(_ provider: String, seconds: Int?, now: Date) {
    let length = min(Double(seconds ?? Int(Self.defaultPause)), Self.longestPause)
    var pauses = read().filter { $0.value > now }
    pauses[provider] = now.addingTimeInterval(max(length, 1))
    let text = pauses.mapValues { ISO8601.format($0) }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let data = try? encoder.encode(text) else { return }
    try? AtomicFile.write(data, to: file, durable: false)
  }

  /// Every remembered pause end; empty when the file is missing or unreadable.
  func read() -> [String: Date] {
    guard let data = try? Data(contentsOf: file), data.count <= 64 * 1024,
      let object = try? JSONDecoder().decode([String: String].self, from: data)
    else { return [:] }
    return object.compactMapValues { ISO8601.parse($0) }
  }
}
