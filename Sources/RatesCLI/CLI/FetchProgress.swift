import RateCore
import Synchronization

/// The "fetching from CoinGecko…" line on a terminal's stderr: shown when a fetch has taken
/// longer than ``delay``, erased when the last request in flight ends, or before any other
/// text goes to stderr (``interrupt()``). Only made when stderr is a terminal and the output
/// is not `--json` (see ``make(context:json:unicode:)``).
final class FetchProgress: Sendable {
  /// How long a fetch runs before the line appears.
  static let delay: Duration = .milliseconds(200)
  /// Erases the line the cursor is on: back to its start, then clear to its end.
  static let erase = "\r\u{1B}[K"

  /// What the line shows and waits for.
  private struct State: Sendable {
    var inFlight = 0
    var shown = false
    /// Which busy spell a pending timer belongs to, so a stale one never shows the line.
    var spell = 0
    var timer: Task<Void, Never>?
  }

  private let state = Mutex(State())
  private let write: @Sendable (String) -> Void
  private let sleep: @Sendable (Duration) async throws -> Void
  private let ellipsis: String

  init(
    write: @escaping @Sendable (String) -> Void,
    sleep: @escaping @Sendable (Duration) async throws -> Void, unicode: Bool
  ) {
    self.write = write
    self.sleep = sleep
    ellipsis = unicode ? "…" : "..."
  }

  /// The progress line for a run, or nil where it must not show: stderr piped or redirected,
  /// or `--json` (scripts read stderr too).
  static func make(context: CommandContext, json: Bool, unicode: Bool) -> FetchProgress? {
    guard context.errorIsTerminal, !json else { return nil }
    return FetchProgress(write: context.writeErr, sleep: context.sleep, unicode: unicode)
  }

  /// A request to `provider` (its display name) starts.
  func begin(_ provider: String) {
    state.withLock { state in
      state.inFlight += 1
      guard state.inFlight == 1 else { return }
      state.spell += 1
      let current = state.spell
      state.timer = Task { [sleep] in
        do { try await sleep(Self.delay) } catch { return }
        self.show(provider, spell: current)
      }
    }
  }

  private func show(_ provider: String, spell current: Int) {
    state.withLock { state in
      guard current == state.spell, state.inFlight > 0, !state.shown else { return }
      state.shown = true
      write("fetching from \(provider)\(ellipsis)")
    }
  }

  /// A request ends, answered or not; the last one erases the line.
  func end() {
    state.withLock { state in
      state.inFlight -= 1
      guard state.inFlight == 0 else { return }
      state.spell += 1
      state.timer?.cancel()
      state.timer = nil
      eraseLine(&state)
    }
  }

  /// Other text is about to go to stderr: the line makes way (for the rest of this spell).
  func interrupt() {
    state.withLock { state in
      state.spell += 1
      eraseLine(&state)
    }
  }

  /// Erases the line if it shows; called with `state` locked.
  private func eraseLine(_ state: inout State) {
    guard state.shown else { return }
    state.shown = false
    write(Self.erase)
  }
}

extension HTTPTransport {
  /// This transport, reporting each request to `progress` under the provider `name` gives it.
  func reporting(
    to progress: FetchProgress, provider name: @escaping @Sendable (HTTPRequest) -> String
  ) -> HTTPTransport {
    HTTPTransport { request in
      progress.begin(name(request))
      defer { progress.end() }
      return try await send(request)
    }
  }
}

extension EnvironmentSettings {
  /// The display name of the provider `request` goes to (by its configured base URL), else
  /// the request's host.
  func providerName(of request: HTTPRequest) -> String {
    let url = request.url.absoluteString
    let bases = [
      (coinGeckoURL, Provider.coinGecko), (coinDeskURL, Provider.coinDesk),
      (frankfurterURL, Provider.frankfurter), (coinbaseURL, Provider.coinbase),
      (krakenURL, Provider.kraken),
    ]
    for (base, provider) in bases where url.hasPrefix(base.absoluteString) {
      return provider.displayName
    }
    return request.url.host ?? "the network"
  }
}
