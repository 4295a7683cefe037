import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Synchronization
import Testing

@testable import RateCore
@testable import RatesCLI

/// A driver that records the effects it is given and answers as a test says.
final class FakeHomeDriver: HomeDriver {
  typealias Answer = @Sendable (HomeEffect, @escaping @Sendable (HomeEvent) -> Void) async -> Void
  let effects = Recorder<HomeEffect>()
  let answer: Answer

  init(answer: @escaping Answer = { _, _ in }) {
    self.answer = answer
  }

  func lists() throws -> HomeLists { HomeLists() }

  func perform(_ effect: HomeEffect, send: @escaping @Sendable (HomeEvent) -> Void) async {
    effects.append(effect)
    await answer(effect, send)
  }
}

/// The home loop with a fake driver, scripted inputs posted to its inbox, and a renderer
/// that writes down what the frame depends on.
@Suite struct HomeSessionTests {
  static let start = Date(timeIntervalSince1970: 1_750_000_000)
  static let enter = "\u{1B}[?1049h\u{1B}[?25l"
  static let leave = "\u{1B}[?25h\u{1B}[?1049l"

  static func board(_ currency: String = "USD", rows: Int = 3) -> HomeBoard {
    HomeBoard(
      currency: currency,
      rows: (0..<rows).map {
        HomeRow(
          kind: .top, id: "coin\($0)", symbol: "C\($0)", name: "Coin \($0)", currency: currency,
          rate: Double($0 + 1), changePercent: 1, changePeriod: .hours24, week: [1, 2])
      }, fetchedAt: start, stale: false)
  }

  /// One running session and everything it wrote.
  struct Run {
    let writes = Recorder<String>()
    let sizes = Recorder<Int>()
    let sleeps = Recorder<Duration>()
    let inbox = HomeInbox()
    let driver: FakeHomeDriver
    let task: Task<(HomeOutcome, HomeState), Never>

    /// Starts a session; `size` is read per frame, `sleep` waits between ticks (by default
    /// until cancelled: no ticks).
    init(
      state: HomeState? = nil, driver: FakeHomeDriver = FakeHomeDriver(),
      now: @escaping @Sendable () -> Date = { HomeSessionTests.start },
      size: @escaping @Sendable (Int) -> (columns: Int, rows: Int) = { _ in (80, 24) },
      sleep: (@Sendable (Int) async throws -> Void)? = nil, queued: [HomeInput] = []
    ) {
      for input in queued { inbox.post(input) }
      let writes = writes
      let sizes = sizes
      let sleeps = sleeps
      let inbox = inbox
      self.driver = driver
      let state =
        state
        ?? HomeState(
          currencies: ["USD", "EUR"], lists: HomeLists(), pickerCurrencies: ["EUR", "GBP"],
          now: HomeSessionTests.start)
      var session = HomeSession(
        state: state,
        render: { state, width, height in
          [
            "w=\(width) h=\(height) \(state.currency) rows=\(state.board?.rows.count ?? -1)"
              + " status=\(state.status) now=\(Int(state.now.timeIntervalSince1970))"
          ] + Array(repeating: "~", count: height - 1)
        },
        size: {
          sizes.append(0)
          return size(sizes.count)
        },
        screen: TerminalScreen(write: { writes.append($0) }), driver: driver, now: now,
        sleep: { duration in
          sleeps.append(duration)
          if let sleep {
            try await sleep(sleeps.count)
          } else {
            try await Task.sleep(for: .seconds(3600))
          }
        })
      task = Task {
        let outcome = await session.run(inbox: inbox)
        return (outcome, session.state)
      }
    }

    /// The frames written, without entering and leaving.
    var frames: [String] { writes.all.filter { $0.hasPrefix("\u{1B}[H") } }

    func post(_ inputs: HomeInput...) {
      for input in inputs { inbox.post(input) }
    }

    func key(_ keys: TerminalKey...) {
      inbox.post(.terminal(.keys(keys), at: .now))
    }

    func waitForFrame(containing text: String) async -> Bool {
      await eventually { frames.contains { $0.contains(text) } }
    }

    func waitForFrames(_ count: Int) async -> Bool {
      await eventually { frames.count >= count }
    }
  }

  @Test func itLoadsTheListDrawsWhatArrivesAndQuitsOnQ() async {
    let driver = FakeHomeDriver { effect, send in
      if case .loadBoard(let currency, _) = effect { send(.board(Self.board(currency))) }
    }
    let run = Run(driver: driver)
    expect(await run.waitForFrame(containing: "USD rows=3"), "\(run.frames)")
    run.key(.character("q"))
    let (outcome, state) = await run.task.value
    expectEqual(outcome, .quit)
    expectEqual(state.board, Self.board())
    expectEqual(driver.effects.all.first, .loadBoard(currency: "USD", refresh: false))
    expectEqual(run.writes.all.first, Self.enter)
    expectEqual(run.writes.all.last, Self.leave)
    expect(run.writes.all.dropFirst().dropLast().allSatisfy { $0.hasPrefix("\u{1B}[H") })
  }

  @Test func aFrameCountsAPauseFromItsOwnTimeNotFromTheLastTick() async {
    // Ticks come every 15 s: a pause announced 14 s after the last one is drawn at 14 s.
    let clock = Mutex(Self.start)
    let run = Run(now: { clock.withLock { $0 } })
    expect(await run.waitForFrame(containing: "now=\(Int(Self.start.timeIntervalSince1970))"))
    clock.withLock { $0 = Self.start.addingTimeInterval(14) }
    run.post(.driver(.status(.rateLimited(until: Self.start.addingTimeInterval(74)))))
    let later = "now=\(Int(Self.start.timeIntervalSince1970) + 14)"
    expect(await run.waitForFrame(containing: later), "\(run.frames)")
    run.key(.interrupt)
    _ = await run.task.value
  }

  @Test func aFailedFirstLoadWithNothingCachedIsRetriedAfterTheInterval() async {
    // First run, offline, nothing cached: no board ever arrives, yet the list loads again
    // once the refresh interval has passed (it stayed on "Loading…" for good).
    let clock = Mutex(Self.start)
    let failed = Flag()
    let driver = FakeHomeDriver { effect, send in
      if case .loadBoard = effect {
        send(.status(.failed("offline")))
        failed.value = true
      }
    }
    let run = Run(
      driver: driver, now: { clock.withLock { $0 } },
      sleep: { call in
        guard call == 1 else { return try await Task.sleep(for: .seconds(3600)) }
        _ = await eventually { failed.value }
        clock.withLock { $0 = Self.start.addingTimeInterval(61) }
      })
    expect(await eventually { driver.effects.all.count >= 2 }, "\(driver.effects.all)")
    expectEqual(driver.effects.all.last, .loadBoard(currency: "USD", refresh: true))
    run.key(.interrupt)
    _ = await run.task.value
  }

  @Test func whatArrivesTogetherIsDrawnAsOneFrame() async {
    let run = Run(queued: [
      .driver(.status(.loading)), .driver(.board(Self.board(rows: 5))), .driver(.status(.idle)),
      .terminal(.keys([.up, .down]), at: .now),
    ])
    expect(await run.waitForFrame(containing: "rows=5"))
    run.key(.interrupt)
    let (outcome, _) = await run.task.value
    expectEqual(outcome, .interrupted)
    expectEqual(run.frames.count, 2, "the first frame, then one for all four: \(run.frames)")
    expect(!run.frames.contains { $0.contains("loading") })
    expectEqual(run.writes.count, 4)
  }

  @Test func theInboxHandsOverEverythingQueuedAtOnce() async {
    let inbox = HomeInbox()
    inbox.post(.driver(.status(.loading)))
    inbox.post(.driver(.board(Self.board(rows: 5))))
    inbox.post(.tick)
    let batch = await inbox.take()
    expectEqual(batch.count, 3)
    inbox.post(.tick)
    expectEqual(await inbox.take().count, 1)
  }

  @Test func aFrameLikeTheLastIsNotWrittenAgainButARedrawIs() async {
    let run = Run()
    expect(await run.waitForFrames(1))
    run.post(.driver(.status(.idle)), .tick)
    run.post(.terminal(.redraw, at: .now))
    expect(await run.waitForFrames(2))
    run.key(.escape)
    expectEqual(await run.task.value.0, .quit)
    expectEqual(run.frames.count, 2, "the first frame, and the redraw: \(run.frames)")
    expectEqual(run.frames[0], run.frames[1])
    // Drawn whole: on a cleared screen, whatever the terminal kept or reflowed.
    expect(run.frames[1].hasPrefix(TerminalScreen.clearSequence), "\(run.frames)")
  }

  @Test func aResizeRedrawsAtTheNewSizeNeverBelow40By12() async {
    let run = Run(size: { call in call == 1 ? (100, 30) : (30, 5) })
    expect(await run.waitForFrame(containing: "w=100 h=30"))
    run.post(.terminal(.redraw, at: .now))
    expect(await run.waitForFrame(containing: "w=40 h=12"))
    run.key(.character("q"))
    _ = await run.task.value
    // Drawn for 40 × 12, shown as its top left corner: 5 lines of at most 30 columns,
    // so that the window neither scrolls nor wraps.
    let small = run.frames[1].dropFirst(3).split(separator: "\r\n")
    expectEqual(small.count, 5, "\(small)")
    expect(small.allSatisfy { TerminalText.displayWidth(String($0)) <= 30 }, "\(small)")
  }

  /// A key acts at the time it is read: `r` a minute after the opening load refreshes, even
  /// though no tick or frame came in between.
  @Test func keysActAtTheTimeTheyArrive() async {
    let clock = TestClock(now: Self.start)
    let run = Run(
      driver: FakeHomeDriver { effect, send in
        if case .loadBoard(let currency, _) = effect {
          send(.board(Self.board(currency)))
          send(.status(.idle))
        }
      },
      now: { clock.now })
    expect(await run.waitForFrame(containing: "rows=3"))
    clock.advance(by: 60)
    run.key(.character("r"))
    expect(await eventually { run.driver.effects.all.contains(.loadBoard(currency: "USD", refresh: true)) })
    run.key(.character("q"))
    _ = await run.task.value
  }

  @Test func pageDownMovesByTheDrawnWindowsPage() async {
    let run = Run(
      driver: FakeHomeDriver { effect, send in
        if case .loadBoard = effect { send(.board(Self.board(rows: 60))) }
      },
      size: { _ in (80, 14) })
    expect(await run.waitForFrame(containing: "rows=60"))
    run.key(.pageDown)
    run.key(.character("q"))
    let (_, state) = await run.task.value
    expectEqual(state.pageSize, HomeRenderer.pageSize(height: 14))
    expectEqual(state.cursor, HomeRenderer.pageSize(height: 14))
  }

  @Test(arguments: [
    (HomeInput.terminal(.signal(15), at: .now), HomeOutcome.signal(15)),
    (.terminal(.signal(1), at: .now), .signal(1)),
    (.terminal(.inputClosed, at: .now), .inputClosed),
    (.terminal(.keys([.character("x"), .interrupt, .character("q")]), at: .now), .interrupted),
  ])
  func signalsCtrlCAndTheEndOfInputEndTheSessionAndLeaveTheScreen(
    input: HomeInput, outcome: HomeOutcome
  ) async {
    let run = Run()
    expect(await run.waitForFrames(1))
    run.post(input)
    expectEqual(await run.task.value.0, outcome)
    expectEqual(run.writes.all.last, Self.leave)
  }

  @Test func theEndOfTheTerminalsEventsEndsTheSession() async {
    let writes = Recorder<String>()
    var session = HomeSession(
      state: HomeState(
        currencies: ["USD"], lists: HomeLists(), pickerCurrencies: [], now: Self.start),
      render: { _, _, _ in ["home"] }, size: { (80, 24) },
      screen: TerminalScreen(write: { writes.append($0) }), driver: FakeHomeDriver(),
      now: { Self.start })
    let events = AsyncStream<TerminalEvent> { continuation in
      continuation.yield(.keys([.down]))
      continuation.finish()
    }
    expectEqual(await session.run(events: events), .inputClosed)
    expectEqual(writes.all.last, Self.leave)
  }

  // MARK: - Ticks

  @Test func ticksComeEverySecondOnlyWhileAHighlightOrAPauseIsShown() {
    var state = HomeState(
      currencies: ["USD"], lists: HomeLists(), pickerCurrencies: [], now: Self.start)
    expectEqual(HomeSession.tickInterval(for: state, at: Self.start), .seconds(15))
    state.changed = ["bitcoin"]
    expectEqual(HomeSession.tickInterval(for: state, at: Self.start), .seconds(1))
    state.changed = []
    state.status = .rateLimited(until: Self.start.addingTimeInterval(30))
    expectEqual(HomeSession.tickInterval(for: state, at: Self.start), .seconds(1))
    expectEqual(
      HomeSession.tickInterval(for: state, at: Self.start.addingTimeInterval(30)), .seconds(15))
    state.status = .failed("offline")
    expectEqual(HomeSession.tickInterval(for: state, at: Self.start), .seconds(15))
  }

  @Test func anIdleScreenWaitsFifteenSecondsAHighlightOneSecond() async {
    let idle = Run()
    expect(await eventually { idle.sleeps.count >= 1 })
    idle.key(.character("q"))
    _ = await idle.task.value
    expectEqual(idle.sleeps.all, [.seconds(15)])

    var state = HomeState(
      currencies: ["USD"], lists: HomeLists(), pickerCurrencies: [], now: Self.start)
    state.changed = ["coin0"]
    let highlighted = Run(state: state)
    expect(await eventually { highlighted.sleeps.count >= 1 })
    highlighted.key(.character("q"))
    _ = await highlighted.task.value
    expectEqual(highlighted.sleeps.all.first, .seconds(1))
  }

  @Test func aTickCarriesTheClocksTimeAndRedrawsWhatDependsOnIt() async {
    let later = Self.start.addingTimeInterval(60)
    let run = Run(
      now: { later },
      sleep: { call in
        // The first wait ends at once; later ones last until cancelled.
        if call > 1 { try await Task.sleep(for: .seconds(3600)) }
      })
    expect(await run.waitForFrame(containing: "now=\(Int(later.timeIntervalSince1970))"))
    run.key(.character("q"))
    let (_, state) = await run.task.value
    expectEqual(state.now, later)
  }
}

/// The effects' tasks: the latest load of a kind wins, changes to the lists keep their order.
@Suite struct HomeWorkTests {
  /// Takes from `inbox` until `marker` (a tick) arrives; the driver events before it.
  static func events(from inbox: HomeInbox) async -> [HomeEvent] {
    var events: [HomeEvent] = []
    while true {
      for input in await inbox.take() {
        switch input {
        case .driver(let event): events.append(event)
        case .tick: return events
        case .terminal: break
        }
      }
    }
  }

  @Test func aNewerLoadCancelsTheOlderAndWhatTheOlderSendsLaterIsDropped() async {
    let log = Recorder<String>()
    let driver = FakeHomeDriver { effect, send in
      guard case .loadBoard(let currency, _) = effect else { return }
      if currency == "USD" {
        // Slow: answers only once cancelled, as a late network answer would.
        await untilCancelled()
        send(.board(HomeSessionTests.board("USD")))
        log.append("USD sent late")
      } else {
        send(.board(HomeSessionTests.board(currency)))
      }
    }
    let inbox = HomeInbox()
    let work = HomeWork(driver: driver, inbox: inbox)
    work.start(.loadBoard(currency: "USD", refresh: false))
    expect(await eventually { driver.effects.count == 1 })
    work.start(.loadBoard(currency: "EUR", refresh: false))
    expect(await eventually { log.all == ["USD sent late"] })
    inbox.post(.tick)
    expectEqual(await Self.events(from: inbox), [.board(HomeSessionTests.board("EUR"))])
  }

  @Test func loadsOfOtherKindsRunSideBySide() async {
    let driver = FakeHomeDriver { effect, send in
      if case .search(let query) = effect {
        send(.searchResults(query: query, hits: [], remote: false))
      } else {
        await untilCancelled()
      }
    }
    let inbox = HomeInbox()
    let work = HomeWork(driver: driver, inbox: inbox)
    work.start(.loadBoard(currency: "USD", refresh: true))
    work.start(.search(query: "bit"))
    let answered = await inbox.take().compactMap { input -> HomeEvent? in
      if case .driver(let event) = input { event } else { nil }
    }
    expectEqual(answered, [.searchResults(query: "bit", hits: [], remote: false)])
    // Started first, yet no scheduler promises it ran first: awaited, not read by position.
    expect(await eventually { driver.effects.all.contains(.loadBoard(currency: "USD", refresh: true)) })
    await work.finish(within: .seconds(5))
  }

  @Test func changesToTheListsRunOneAfterAnotherInOrder() async {
    let log = Recorder<String>()
    let (gate, open) = AsyncStream<Void>.makeStream()
    let driver = FakeHomeDriver { effect, _ in
      switch effect {
      case .removeCoin:
        log.append("remove started")
        for await _ in gate {}
        log.append("remove done")
      case .restoreCoin: log.append("restore")
      default: break
      }
    }
    let queued = Recorder<HomeEffect>()
    let work = HomeWork(driver: driver, inbox: HomeInbox(), queued: { queued.append($0) })
    let coin = FavoriteCoin(
      id: "kaspa", symbol: "KAS", name: "Kaspa", addedAt: HomeSessionTests.start)
    work.start(.removeCoin(id: "kaspa"))
    work.start(.restoreCoin(coin, at: 0))
    // The removal in flight and the undo waiting behind it: only then may the removal end.
    expect(await eventually { log.count >= 1 && queued.count == 1 })
    expectEqual(queued.all, [.restoreCoin(coin, at: 0)])
    expectEqual(log.all, ["remove started"])
    open.finish()
    await work.finish(within: .seconds(30))
    expectEqual(log.all, ["remove started", "remove done", "restore"])
  }

  @Test func finishCancelsLoadsAndWaitsForAChangeInFlight() async {
    let log = Recorder<String>()
    let driver = FakeHomeDriver { effect, _ in
      switch effect {
      case .loadBoard:
        await untilCancelled()
        log.append("load cancelled")
      case .addPair:
        // Still in flight when `finish` cancels the load: done only after that.
        _ = await eventually { log.all.contains("load cancelled") }
        log.append("pair added")
      default: break
      }
    }
    let work = HomeWork(driver: driver, inbox: HomeInbox())
    work.start(.loadBoard(currency: "USD", refresh: false))
    work.start(.addPair(base: "GBP", quote: "USD"))
    await work.finish(within: .seconds(30))
    expectEqual(log.all, ["load cancelled", "pair added"])
  }
}
