import RateCore
import Synchronization

/// How the home screen ended.
enum HomeOutcome: Equatable, Sendable {
  /// `q` or Esc on the home list.
  case quit
  /// Ctrl-C typed in raw mode.
  case interrupted
  /// The keyboard input ended.
  case inputClosed
  /// An ending signal arrived.
  case signal(Int32)
}

/// The home screen's event loop, with its events, screen, size, clock and driver injected:
/// the live terminal and ``LiveHomeDriver`` in `rates`, scripted events and a fake driver
/// in tests.
///
/// It merges the terminal's events, the driver's answers and clock ticks into
/// ``HomeState/handle(_:)``, and carries out the effects on tasks of their own through
/// ``HomeDriver/perform(_:send:)`` (``HomeWork``). Whatever arrived while one frame was
/// being made is applied at once and drawn as one frame, with one write, and only when the
/// frame differs from the last one (or after a resize or a resumption, which always
/// redraw). The size is read for every frame and never taken below 40 × 12.
///
/// Ticks come every second only while something on screen depends on them (a highlight to
/// clear, a rate-limit countdown), otherwise every 15 seconds; between them the loop
/// sleeps, so an idle screen costs no CPU.
struct HomeSession: Sendable {
  /// The smallest window a frame is drawn for; a smaller one shows its top left corner.
  static let minimumSize = (columns: 40, rows: 12)

  var state: HomeState
  /// Makes a frame's lines for a state and a size (``HomeRenderer/render(_:width:height:style:ascii:)``).
  var render: @Sendable (HomeState, _ width: Int, _ height: Int) -> [String]
  /// The window size in columns and rows, read before every frame.
  var size: @Sendable () -> (columns: Int, rows: Int)
  /// Where frames go; each frame is one write.
  var screen: TerminalScreen
  var driver: any HomeDriver
  /// The time ticks carry.
  var now: @Sendable () -> Date
  /// Waits between ticks.
  var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
  /// Told, for each frame a key led to, how long after the key was read the frame was
  /// written (`RATES_HOME_TRACE`, for `scripts/home-bench.sh`).
  var trace: (@Sendable (Duration) -> Void)? = nil

  /// The seconds between ticks for `state` at `date`: 1 while a highlight waits to be
  /// cleared or a rate-limit pause counts down, else 15 (ages are shown in minutes).
  static func tickInterval(for state: HomeState, at date: Date) -> Duration {
    if !state.changed.isEmpty { return .seconds(1) }
    if case .rateLimited(let until) = state.status, until > date { return .seconds(1) }
    return .seconds(15)
  }

  /// Runs until a key, a signal or the end of `events` ends the session.
  mutating func run(events: AsyncStream<TerminalEvent>) async -> HomeOutcome {
    let inbox = HomeInbox()
    let forwarder = Task {
      for await event in events { inbox.post(.terminal(event, at: .now)) }
      inbox.post(.terminal(.inputClosed, at: .now))
    }
    defer { forwarder.cancel() }
    return await run(inbox: inbox)
  }

  /// Runs on what is posted to `inbox`: enters the screen, starts the first load, draws,
  /// then applies and draws batch after batch. Leaves the screen whatever ends it, then
  /// lets a change to the user's lists in flight finish (for at most 2 seconds).
  mutating func run(inbox: HomeInbox) async -> HomeOutcome {
    let work = HomeWork(driver: driver, inbox: inbox)
    var ticker = HomeTicker(sleep: sleep, inbox: inbox)
    screen.enter()
    var frame = FrameMemo()
    let outcome = await loop(inbox: inbox, work: work, ticker: &ticker, frame: &frame)
    ticker.stop()
    screen.leave()
    await work.finish(within: .seconds(2))
    return outcome
  }

  private mutating func loop(
    inbox: HomeInbox, work: HomeWork, ticker: inout HomeTicker, frame: inout FrameMemo
  ) async -> HomeOutcome {
    if let outcome = carryOut(state.start(), work: work) { return outcome }
    draw(&frame, force: true, keyReadAt: nil)
    while true {
      ticker.keep(Self.tickInterval(for: state, at: now()))
      var redraw = false
      var keyReadAt: ContinuousClock.Instant?
      let batch = await inbox.take()
      // Keys act at the time they arrive (`r` spacing, ages), not at the last tick's.
      state.setClock(now())
      for input in batch {
        switch input {
        case .terminal(.keys(let keys), let at):
          keyReadAt = keyReadAt ?? at
          for key in keys {
            if let outcome = apply(.key(key), work: work) { return outcome }
          }
        case .terminal(.redraw, _): redraw = true
        case .terminal(.signal(let number), _): return .signal(number)
        case .terminal(.inputClosed, _): return .inputClosed
        case .driver(let event):
          if let outcome = apply(event, work: work) { return outcome }
        case .tick:
          if let outcome = apply(.tick(now()), work: work) { return outcome }
        }
      }
      draw(&frame, force: redraw, keyReadAt: keyReadAt)
    }
  }

  /// Applies one event and carries out its effects; the outcome when one ends the session.
  private mutating func apply(_ event: HomeEvent, work: HomeWork) -> HomeOutcome? {
    carryOut(state.handle(event), work: work)
  }

  private func carryOut(_ effects: [HomeEffect], work: HomeWork) -> HomeOutcome? {
    for effect in effects {
      switch effect {
      case .exit(.quit): return .quit
      case .exit(.interrupted): return .interrupted
      default: work.start(effect)
      }
    }
    return nil
  }

  /// Draws the state at the window's size, unless the frame is the one last drawn; `force`
  /// (the first frame, a resize, a resumption) draws it whole on a cleared screen.
  /// The state learns the size and the time first: the next keys (a click, Page Down) act on
  /// this frame, and ages and countdowns are those of now.
  private mutating func draw(_ memo: inout FrameMemo, force: Bool, keyReadAt: ContinuousClock.Instant?) {
    let (columns, rows) = size()
    let width = max(Self.minimumSize.columns, columns)
    let height = max(Self.minimumSize.rows, rows)
    state.setWindow(width: width, height: height)
    state.setClock(now())
    let lines = Self.corner(render(state, width, height), columns: columns, rows: rows)
    let drawnWidth = min(width, max(1, columns))
    guard force || lines != memo.lines || drawnWidth != memo.width else { return }
    memo = FrameMemo(lines: lines, width: drawnWidth)
    screen.draw(lines, width: drawnWidth, clear: force)
    if let trace, let keyReadAt { trace(ContinuousClock.now - keyReadAt) }
  }

  /// The top left corner of a frame that fits a window of `columns` × `rows`: a window
  /// smaller than ``minimumSize`` gets no more lines than it has rows (more would scroll
  /// it) and no line wider than it (which would wrap).
  static func corner(_ lines: [String], columns: Int, rows: Int) -> [String] {
    let shown = lines.count > rows ? Array(lines.prefix(max(1, rows))) : lines
    guard columns < minimumSize.columns else { return shown }
    return shown.map { TerminalText.truncate($0, toWidth: max(1, columns), ascii: true) }
  }

  /// The last frame drawn.
  struct FrameMemo {
    var lines: [String] = []
    var width = 0
  }
}

/// What the home loop reacts to, in the order it arrived.
enum HomeInput: Sendable {
  /// From the terminal, with when the session read it.
  case terminal(TerminalEvent, at: ContinuousClock.Instant)
  /// From the driver.
  case driver(HomeEvent)
  /// The tick timer fired.
  case tick
}

/// The home loop's queue: anything may post, and the loop takes everything posted since it
/// last looked, in order, as one batch, waiting when there is nothing.
final class HomeInbox: Sendable {
  private struct Queue {
    var inputs: [HomeInput] = []
    var waiter: CheckedContinuation<[HomeInput], Never>?
  }

  private let queue = Mutex(Queue())

  /// Adds `input`, waking the loop if it waits.
  func post(_ input: HomeInput) {
    let waiter = queue.withLock { queue -> CheckedContinuation<[HomeInput], Never>? in
      guard let waiter = queue.waiter else {
        queue.inputs.append(input)
        return nil
      }
      queue.waiter = nil
      return waiter
    }
    waiter?.resume(returning: [input])
  }

  /// Everything posted since the last call, waiting for at least one input. One taker at a time.
  func take() async -> [HomeInput] {
    await withCheckedContinuation { continuation in
      let ready = queue.withLock { queue -> [HomeInput]? in
        guard queue.inputs.isEmpty else {
          defer { queue.inputs.removeAll() }
          return queue.inputs
        }
        queue.waiter = continuation
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }
}

/// Posts ``HomeInput/tick`` at an interval, restarted when the interval changes.
struct HomeTicker {
  let sleep: @Sendable (Duration) async throws -> Void
  let inbox: HomeInbox
  private var interval: Duration?
  private var task: Task<Void, Never>?

  init(sleep: @escaping @Sendable (Duration) async throws -> Void, inbox: HomeInbox) {
    self.sleep = sleep
    self.inbox = inbox
  }

  /// Ticks every `interval` from now, unless it already does.
  mutating func keep(_ interval: Duration) {
    guard interval != self.interval else { return }
    task?.cancel()
    self.interval = interval
    task = Task { [sleep, inbox] in
      while !Task.isCancelled {
        do { try await sleep(interval) } catch { return }
        guard !Task.isCancelled else { return }
        inbox.post(.tick)
      }
    }
  }

  /// Stops ticking.
  mutating func stop() {
    task?.cancel()
    task = nil
    interval = nil
  }
}
