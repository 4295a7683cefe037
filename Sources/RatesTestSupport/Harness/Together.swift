import Foundation

/// Runs `body(index)` for `0..<count` on as many real threads (not a pool sized to the
/// cores), released at the same moment, as separate processes would race; waits for all
/// and returns what the ones that threw said, as `"<index>: <error>"`. The wait is awaited,
/// so no thread of the concurrency pool is held while the threads run.
public func runTogether(
  _ count: Int, _ body: @escaping @Sendable (Int) throws -> Void
) async -> [String] {
  let failures = Recorder<String>()
  let start = DispatchSemaphore(value: 0)
  let done = DispatchGroup()
  for index in 0..<count {
    done.enter()
    Thread {
      start.wait()
      do {
        try body(index)
      } catch {
        failures.append("\(index): \(error)")
      }
      done.leave()
    }.start()
  }
  for _ in 0..<count { start.signal() }
  // Awaited, not waited for: the test's thread belongs to the concurrency pool.
  await withCheckedContinuation { continuation in
    done.notify(queue: .global()) { continuation.resume() }
  }
  return failures.all
}
