/// The providers' state remembered across runs in a small JSON file in the
/// cache folder (`provider-pauses.json`): when each provider's rate-limit
/// pause ends, so the next command skips a provider that answered 429 until
/// then, and when each last answered (for `rates doctor`):
/// `{"pausedUntil": {"coingecko": "…"}, "lastSuccess": {"kraken": "…"}}`.
///
/// A missing, unreadable or hostile file is no pause and no known success (it
/// is a cache: losing it costs one more 429, never a wrong figure); an instant
/// further ahead than ``longestPause`` is capped.
public struct ProviderPauses: Sendable {
  /// The file's name in the cache folder.
  public static let fileName = "provider-pauses.json"
  /// Its lock file's name, beside it (``FileLock``).
  public static let lockFileName = fileName + ".lock"
  /// Whether a file of the cache folder at `relative` (its path components) is one of these
  /// two: the cache's own state, never an entry.
  public static func owns(_ relative: [String]) -> Bool {
    relative == [fileName] || relative == [lockFileName]
  }
  /// The pause after a 429 without a usable `Retry-After`.
  public static let defaultPause: TimeInterval = 60
  /// The longest pause honoured, whatever a server or the file says.
  public static let longestPause: TimeInterval = 3_600
  /// A success is written only when the one on file is older than this, so a
  /// busy `watch` does not rewrite the file with every answer.
  public static let successResolution: TimeInterval = 600

  /// The file's content, instants as ISO 8601 text.
  struct State: Codable {
    var pausedUntil: [String: String] = [:]
    var lastSuccess: [String: String] = [:]

    init() {}

    /// Either map may be absent.
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      pausedUntil = try container.decodeIfPresent([String: String].self, forKey: .pausedUntil) ?? [:]
      lastSuccess = try container.decodeIfPresent([String: String].self, forKey: .lastSuccess) ?? [:]
    }
  }

  let file: URL
  /// How long a change waits for the file's lock before it gives up (and loses only itself).
  let lockTimeout: Duration

  /// Pauses kept in `cacheFolder`; a change waits up to `lockTimeout` for the file's lock (a
  /// test of many writers at once on a loaded machine waits longer than a command would).
  public init(cacheFolder: URL, lockTimeout: Duration = .seconds(2)) {
    file = cacheFolder.appendingPathComponent(Self.fileName)
    self.lockTimeout = lockTimeout
  }

  /// When `provider`'s pause ends, if it is paused at `now`. A pause on file that ends
  /// more than ``longestPause`` after `now` (an edited file, a clock set back: `9999-12-31`)
  /// is clamped to end then, and the file rewritten so, so that it ends.
  public func pausedUntil(_ provider: Provider, now: Date) -> Date? {
    let provider = provider.rawValue
    guard let end = read().pausedUntil[provider].flatMap(ISO8601.parse), end > now else {
      return nil
    }
    let longest = now.addingTimeInterval(Self.longestPause)
    guard end > longest else { return end }
    update { state in
      guard let stored = state.pausedUntil[provider].flatMap(ISO8601.parse), stored > longest else {
        return false
      }
      state.pausedUntil[provider] = ISO8601.format(longest)
      return true
    }
    return longest
  }

  /// When `provider` last answered (to within ``successResolution``), if known.
  public func lastSuccess(_ provider: Provider) -> Date? {
    read().lastSuccess[provider.rawValue].flatMap(ISO8601.parse)
  }

  /// Remembers that `provider` is paused from `now` for `seconds` (the
  /// answer's `Retry-After`, else ``defaultPause``), capped at
  /// ``longestPause``. A file that cannot be written only loses the pause.
  public func pause(_ provider: Provider, seconds: Int?, now: Date) {
    pause(key: provider.rawValue, seconds: seconds, now: now)
  }

  /// ``pause(_:seconds:now:)`` under the file's key for a provider (its raw value).
  func pause(key provider: String, seconds: Int?, now: Date) {
    let length = min(Double(seconds ?? Int(Self.defaultPause)), Self.longestPause)
    update { state in
      state.pausedUntil = state.pausedUntil.filter {
        ISO8601.parse($0.value).map { $0 > now } ?? false
      }
      state.pausedUntil[provider] = ISO8601.format(now.addingTimeInterval(max(length, 1)))
      return true
    }
  }

  /// Remembers that `provider` answered at `now` (written only when the known
  /// success is older than ``successResolution``).
  public func succeeded(_ provider: Provider, now: Date) {
    succeeded(key: provider.rawValue, now: now)
  }

  /// ``succeeded(_:now:)`` under the file's key for a provider (its raw value).
  func succeeded(key provider: String, now: Date) {
    if let known = read().lastSuccess[provider].flatMap(ISO8601.parse),
      now.timeIntervalSince(known) < Self.successResolution, known <= now
    {
      return
    }
    update { state in
      if let known = state.lastSuccess[provider].flatMap(ISO8601.parse),
        now.timeIntervalSince(known) < Self.successResolution, known <= now
      {
        return false
      }
      state.lastSuccess[provider] = ISO8601.format(now)
      return true
    }
  }

  /// Reads, changes and writes the file under its exclusive lock (`provider-pauses.json.lock`,
  /// as the day store locks its files), so two sources or two `rates` processes recording at
  /// once both keep their entry. `change` says whether anything changed. A lock that cannot be
  /// taken in time only loses this entry (the file is a cache).
  private func update(_ change: (inout State) -> Bool) {
    try? AtomicFile.createDirectory(file.deletingLastPathComponent())
    let lockURL = file.deletingLastPathComponent().appendingPathComponent(Self.lockFileName)
    guard
      let lock = try? FileLock.acquire(at: lockURL, for: file, exclusive: true, timeout: lockTimeout)
    else { return }
    defer { lock.release() }
    var state = read()
    guard change(&state) else { return }
    write(state)
  }

  /// The largest file read: a few providers' instants take a few hundred bytes.
  static let maximumBytes = 64 * 1024

  /// The file's state; empty when the file is missing, unreadable or larger than
  /// ``maximumBytes`` (never read past that: a huge sparse file costs nothing).
  func read() -> State {
    guard case .bytes(let bytes) = JSONFileCache.readEntry(at: file.path, limit: Self.maximumBytes),
      let state = try? JSONDecoder().decode(State.self, from: Data(bytes))
    else { return State() }
    return state
  }

  private func write(_ state: State) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let data = try? encoder.encode(state) else { return }
    try? AtomicFile.write(data, to: file, durable: false)
  }
}

extension PriceSource {
  /// This source, noting in `pauses` each answer it gives: an answer that passed the
  /// source's validation (its decoding and ``AnswerGate``), never a mere 2xx.
  func notingSuccess(in pauses: ProviderPauses, now: @escaping @Sendable () -> Date) -> PriceSource {
    var noted = self
    let (name, prices, dailyCloses) = (name, prices, dailyCloses)
    noted.prices = { pairs in
      let quotes = try await prices(pairs)
      pauses.succeeded(name, now: now())
      return quotes
    }
    noted.dailyCloses = { asset, currency, days in
      let closes = try await dailyCloses(asset, currency, days)
      pauses.succeeded(name, now: now())
      return closes
    }
    return noted
  }
}
