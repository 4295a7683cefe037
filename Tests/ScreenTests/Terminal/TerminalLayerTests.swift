import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Collects what a stream delivers, for waiting on it with a hang guard.
final class StreamLog<Element: Sendable>: Sendable {
  let recorder = Recorder<Element>()
  private let task: Task<Void, Never>
  let finished = Recorder<Bool>()

  init(_ stream: AsyncStream<Element>) {
    let recorder = recorder
    let finished = finished
    task = Task {
      for await element in stream { recorder.append(element) }
      finished.append(true)
    }
  }

  var all: [Element] { recorder.all }
  var isFinished: Bool { finished.count > 0 }

  /// Waits until `condition` holds for what arrived; false after a generous hang guard.
  func wait(until condition: @escaping ([Element]) -> Bool) async -> Bool {
    await eventually { condition(self.all) }
  }
}

// MARK: - The screen

@Suite struct TerminalScreenTests {
  static let enter = "\u{1B}[?1049h\u{1B}[?25l"
  static let leave = "\u{1B}[?25h\u{1B}[?1049l"

  @Test func entersDrawsAndLeavesOnce() {
    let writes = Recorder<String>()
    let screen = TerminalScreen(write: { writes.append($0) })
    screen.draw(["before"], width: 20)
    screen.enter()
    screen.enter()
    screen.draw(["a", "b"], width: 20, bell: true)
    screen.leave()
    screen.leave()
    screen.draw(["after"], width: 20)
    expectEqual(
      writes.all,
      [
        Self.enter, "\u{1B}[Ha\u{1B}[K\r\nb\u{1B}[K\u{1B}[J\u{07}", Self.leave,
      ])
  }

  @Test func withTheMouseTheTerminalReportsItOnlyWhileTheScreenIsOn() {
    let writes = Recorder<String>()
    let screen = TerminalScreen(mouse: true, write: { writes.append($0) })
    let on = "\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h"
    let off = "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l"
    screen.enter()
    screen.suspend()
    screen.resume()
    screen.leave()
    expectEqual(writes.all, [Self.enter + on, off + Self.leave, Self.enter + on, off + Self.leave])
    let plain = Recorder<String>()
    let explorer = TerminalScreen(write: { plain.append($0) })
    explorer.enter()
    explorer.leave()
    expectEqual(plain.all, [Self.enter, Self.leave], "no mouse unless asked")
  }

  @Test func aFullLineIsNotErasedAfter() {
    expectEqual(TerminalScreen.frame(["abcd", "ab"], width: 4), "\u{1B}[Habcd\r\nab\u{1B}[K\u{1B}[J")
  }

  @Test func aFrameDrawnWholeClearsTheScreenFirst() {
    expectEqual(
      TerminalScreen.frame(["ab"], width: 4, clear: true), "\u{1B}[H\u{1B}[2J\u{1B}[Hab\u{1B}[K\u{1B}[J")
  }

  @Test func suspendLeavesAndResumeComesBackWithoutDrawingBetween() {
    let writes = Recorder<String>()
    let screen = TerminalScreen(write: { writes.append($0) })
    screen.suspend()
    screen.resume()
    expect(writes.all.isEmpty, "never entered: nothing to give back")
    screen.enter()
    screen.suspend()
    expect(!screen.isOn)
    screen.draw(["hidden"], width: 20)
    screen.resume()
    expect(screen.isOn)
    screen.resume()
    expectEqual(writes.all, [Self.enter, Self.leave, Self.enter, Self.enter])
    screen.suspend()
    screen.leave()
    screen.resume()
    expectEqual(writes.all.last, Self.leave)
    expect(!screen.isOn, "left while suspended: stays off")
  }
}

// MARK: - Signals and job control

@Suite struct SignalActionTests {
  @Test(arguments: [
    (SIGINT, SignalAction.end), (SIGTERM, .end), (SIGHUP, .end), (SIGQUIT, .end),
    (SIGWINCH, .resize), (SIGTSTP, .suspend), (SIGCONT, .resume),
  ])
  func eachSignalHasItsAction(signal: Int32, action: SignalAction) {
    expectEqual(SignalAction(signal: signal), action)
  }

  @Test func otherSignalsAreNotWatched() {
    expectEqual(SignalAction(signal: SIGUSR1), nil)
    expectEqual(SignalAction(signal: SIGPIPE), nil)
  }

  @Test func aSessionWatchesJobControlOnlyWhenItChangesTheTerminal() {
    let ending = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    let plain = TerminalSession.Configuration(fullScreen: false, keys: .none)
    expectEqual(TerminalSession.signals(for: plain, readsKeys: false), ending)
    expectEqual(TerminalSession.signals(for: plain, readsKeys: true), ending + [SIGTSTP, SIGCONT])
    let board = TerminalSession.Configuration(fullScreen: true, keys: .none)
    expectEqual(
      TerminalSession.signals(for: board, readsKeys: false),
      ending + [SIGWINCH, SIGTSTP, SIGCONT])
  }

  @Test(arguments: [
    (SIGINT, ExitCode.interrupted), (SIGTERM, .terminated), (SIGHUP, .hangup),
    (SIGQUIT, .interrupted),
  ])
  func endingSignalsExitWith128PlusTheSignal(signal: Int32, code: ExitCode) {
    expectEqual(ExitCode(endingSignal: signal), code)
  }
}

@Suite struct JobControlTests {
  /// A job control over a recording screen, its stop recorded in the same log as the writes.
  static func make() -> (JobControl, Recorder<String>, StreamLog<TerminalEvent>) {
    let log = Recorder<String>()
    let (events, continuation) = AsyncStream.makeStream(of: TerminalEvent.self)
    let screen = TerminalScreen(write: { log.append($0) })
    screen.enter()
    let control = JobControl(
      screen: screen, rawMode: nil, events: continuation, stopProcess: { log.append("STOP") })
    return (control, log, StreamLog(events))
  }

  @Test func suspendGivesTheScreenBackBeforeStoppingAndResumeRedraws() async {
    let (control, log, events) = Self.make()
    control.handle(signal: SIGTSTP)
    expectEqual(log.all, [TerminalScreenTests.enter, TerminalScreenTests.leave, "STOP"])
    control.handle(signal: SIGCONT)
    expectEqual(log.all.last, TerminalScreenTests.enter)
    expect(await events.wait { $0 == [.redraw] })
  }

  @Test func ctrlZBetweenKeysSuspendsWhereItWasTyped() async {
    let (control, log, events) = Self.make()
    control.handle(keys: [.character("h"), .suspend, .left, .suspend])
    expectEqual(log.all.filter { $0 == "STOP" }.count, 2)
    expect(await events.wait { $0 == [.keys([.character("h")]), .keys([.left])] })
  }

  @Test func resizeAndEndingSignalsBecomeEvents() async {
    let (control, _, events) = Self.make()
    control.handle(signal: SIGWINCH)
    control.handle(signal: SIGTERM)
    control.handle(signal: SIGUSR1)
    control.handle(keys: [.escape])
    expect(await events.wait { $0 == [.redraw, .signal(SIGTERM), .keys([.escape])] })
  }

  @Test func afterTheEndNothingIsWrittenStoppedOrSent() async {
    let (control, log, events) = Self.make()
    control.end()
    control.end()
    control.handle(signal: SIGTSTP)
    control.handle(signal: SIGCONT)
    control.handle(keys: [.suspend])
    expectEqual(log.all, [TerminalScreenTests.enter, TerminalScreenTests.leave])
    expect(await eventually { events.isFinished })
    expect(events.all.isEmpty)
  }
}

/// Real signals sent to this process: serialized, as the watchers share dispositions.
/// Only `SIGWINCH` and `SIGCONT`, harmless if anything went wrong.
@Suite(.serialized) struct SignalDeliveryTests {
  @Test func aWatcherDeliversSignalsInOrderUntilCancelled() async {
    let (signals, watcher) = SignalWatcher.stream([SIGWINCH, SIGCONT])
    let log = StreamLog(signals)
    kill(getpid(), SIGWINCH)
    expect(await log.wait { $0 == [SIGWINCH] })
    kill(getpid(), SIGCONT)
    expect(await log.wait { $0 == [SIGWINCH, SIGCONT] })
    watcher.cancel()
    watcher.cancel()
    expect(await eventually { log.isFinished })
  }

  /// libdispatch takes a signal over only for its first source: watchers
  /// share one, so a later watcher still hears it.
  @Test func watchersSideBySideAndOneAfterAnotherAllHear() async {
    for round in 1...2 {
      let (first, firstWatcher) = SignalWatcher.stream([SIGWINCH])
      let (second, secondWatcher) = SignalWatcher.stream([SIGCONT, SIGWINCH])
      let (firstLog, secondLog) = (StreamLog(first), StreamLog(second))
      kill(getpid(), SIGWINCH)
      expect(await firstLog.wait { $0 == [SIGWINCH] }, "round \(round)")
      expect(await secondLog.wait { $0 == [SIGWINCH] }, "round \(round)")
      firstWatcher.cancel()
      kill(getpid(), SIGCONT)
      expect(await secondLog.wait { $0 == [SIGWINCH, SIGCONT] }, "round \(round)")
      secondWatcher.cancel()
      expect(await eventually { firstLog.isFinished && secondLog.isFinished })
    }
  }

  @Test func aSessionRedrawsOnResizeAndComesBackOnContinue() async throws {
    let writes = Recorder<String>()
    let configuration = TerminalSession.Configuration(
      fullScreen: true, keys: .none, stopProcess: { writes.append("STOP") })
    let session = try TerminalSession(configuration, write: { writes.append($0) })
    let events = StreamLog(session.events)
    expect(!session.readsKeys)
    expectEqual(writes.all, [TerminalScreenTests.enter])
    kill(getpid(), SIGWINCH)
    expect(await events.wait { $0 == [.redraw] })
    kill(getpid(), SIGCONT)
    expect(await events.wait { $0 == [.redraw, .redraw] })
    expectEqual(writes.all, [TerminalScreenTests.enter, TerminalScreenTests.enter])
    session.end()
    expectEqual(writes.all.last, TerminalScreenTests.leave)
    expect(await eventually { events.isFinished })
  }

  @Test func runRestoresTheScreenWhenTheBodyThrows() async {
    struct Failure: Error {}
    let writes = Recorder<String>()
    await #expect(throws: Failure.self) {
      try await TerminalSession.run(
        .init(fullScreen: true, keys: .none), write: { writes.append($0) },
        body: { _ in throw Failure() })
    }
    expectEqual(writes.all, [TerminalScreenTests.enter, TerminalScreenTests.leave])
  }

  @Test func requiredKeysWithoutATerminalThrow() throws {
    var fds: [Int32] = [-1, -1]
    expectEqual(pipe(&fds), 0)
    defer { for fd in fds { close(fd) } }
    #expect(throws: RawMode.Failure.notATerminal) {
      _ = try TerminalSession(
        .init(fullScreen: false, keys: .required, input: fds[0]), write: { _ in })
    }
    let optional = try TerminalSession(
      .init(fullScreen: false, keys: .ifTerminal, input: fds[0]), write: { _ in })
    expect(!optional.readsKeys)
    optional.end()
  }
}

// MARK: - Keys

@Suite struct KeyReaderTests {
  enum Event: Equatable, Sendable {
    case keys([TerminalKey])
    case end
  }

  @Test func readsDecodesPausesAndEnds() async throws {
    var fds: [Int32] = [-1, -1]
    expectEqual(pipe(&fds), 0)
    let reader = try require(KeyReader(fileDescriptor: fds[0]))
    let log = Recorder<Event>()
    reader.start(onKeys: { log.append(.keys($0)) }, onEnd: { log.append(.end) })
    func send(_ bytes: [UInt8]) {
      _ = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
    }

    send(Array("h\u{1B}[Dq".utf8))
    expect(await eventually { log.all == [.keys([.character("h"), .left, .character("q")])] })
    // A lone Esc is only known when the input pauses.
    send([0x1B])
    expect(await eventually { log.count == 2 })
    expectEqual(log.all.last, .keys([.escape]))
    send([0x1A, 0x03])
    expect(await eventually { log.count == 3 })
    expectEqual(log.all.last, .keys([.suspend, .interrupt]))
    close(fds[1])
    expect(await eventually { log.all.last == .end })
    reader.stop()
    close(fds[0])
  }
}

// MARK: - Watch on the terminal

@Suite struct WatchRunnerTests {
  @Test(arguments: [
    (TerminalEvent.keys([.character("q")]), WatchRunner.Ending?.some(.quit)),
    (.keys([.character("Q")]), .quit), (.keys([.escape]), .quit),
    (.keys([.left, .interrupt, .character("q")]), .interrupted),
    (.keys([.character("x"), .up]), nil), (.signal(SIGTERM), .signal(SIGTERM)),
    (.redraw, nil), (.inputClosed, nil),
  ])
  func eventsThatEndTheWatch(event: TerminalEvent, ending: WatchRunner.Ending?) {
    expectEqual(WatchRunner.ending(for: event), ending)
  }

  @Test func aKeyEndsAWatchThatWouldRunForever() async {
    let task = Task<WatchEngine.Outcome, any Error> {
      try await Task.sleep(for: .seconds(3600))
      return .finished
    }
    let (events, continuation) = AsyncStream.makeStream(of: TerminalEvent.self)
    continuation.yield(.inputClosed)
    continuation.yield(.keys([.character("x")]))
    continuation.yield(.keys([.character("q")]))
    let ending = await WatchRunner.firstEnding(of: task, events: events, board: nil)
    expectEqual(ending, .quit)
    task.cancel()
    await WatchRunner.settle(task, within: .seconds(60))
    expect(task.isCancelled)
  }

  @Test func theEngineFinishingEndsIt() async throws {
    let task = Task<WatchEngine.Outcome, any Error> { .alert }
    let (events, _) = AsyncStream.makeStream(of: TerminalEvent.self)
    let ending = await WatchRunner.firstEnding(of: task, events: events, board: nil)
    expectEqual(ending, .finished)
    expectEqual(try await WatchRunner.exitCode(for: ending, of: task), .alert)
    expectEqual(try await WatchRunner.exitCode(for: .quit, of: task), .success)
    expectEqual(try await WatchRunner.exitCode(for: .interrupted, of: task), .interrupted)
    expectEqual(try await WatchRunner.exitCode(for: .signal(SIGHUP), of: task), .hangup)
  }

  @Test func settlingGivesUpOnAnEngineThatIgnoresCancellation() async {
    let (stuck, release) = AsyncStream.makeStream(of: Void.self)
    // Awaiting another task's value does not pass cancellation on: like a
    // request that ignores it.
    let request = Task.detached { for await _ in stuck {} }
    let task = Task<WatchEngine.Outcome, any Error> {
      await request.value
      return .finished
    }
    task.cancel()
    await WatchRunner.settle(task, within: .milliseconds(10))
    release.finish()
    expectEqual((try? await task.value), .finished)
  }
}

extension SignalWatcher {
  /// Watches `signals` and delivers them, in order, as a stream that finishes when the
  /// watcher is cancelled.
  fileprivate static func stream(_ signals: [Int32]) -> (signals: AsyncStream<Int32>, watcher: SignalWatcher) {
    let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
    let watcher = SignalWatcher(
      signals, onCancel: { continuation.finish() }, handler: { continuation.yield($0) })
    return (stream, watcher)
  }
}
