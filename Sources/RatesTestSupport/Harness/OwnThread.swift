import RateCore

/// Runs `body` on a new thread of its own and returns its result: for code that blocks the
/// thread it runs on (``CLIHarness/runOnThisThread(_:onClockRead:)``), which must not block
/// a thread of the test runner's pool.
public func onThreadOfItsOwn<Value: Sendable>(
  _ body: @escaping @Sendable () -> Value
) async -> Value {
  await withCheckedContinuation { continuation in
    let started = detachThread { continuation.resume(returning: body()) }
    precondition(started, "the system made no thread for the test")
  }
}
