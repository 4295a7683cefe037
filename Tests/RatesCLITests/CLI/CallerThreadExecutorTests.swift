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

/// ``CallerThreadExecutor``: async work whose jobs run on the thread that asks for it, so
/// a command that never waits on another thread starts none.
@Suite struct CallerThreadExecutorTests {
  /// Counts what a default actor is asked, to check where its methods run.
  actor Counter {
    var count = 0
    func bump(_ onThread: @Sendable () -> Void) -> Int {
      onThread()
      count += 1
      return count
    }
  }

  @Test func theTaskItsChildrenAndADefaultActorRunOnTheCallingThread() async {
    let (value, places) = await onThreadOfItsOwn { () -> (Int, [Bool]) in
      let caller = pthread_self()
      let places = Recorder<Bool>()
      let here: @Sendable () -> Void = { places.append(pthread_equal(pthread_self(), caller) != 0) }
      let value = CallerThreadExecutor.run { () -> Int in
        here()
        let counter = Counter()
        _ = await counter.bump(here)
        await withTaskGroup(of: Void.self) { group in
          for _ in 0..<3 { group.addTask { here() } }
        }
        async let other = counter.bump(here)
        return await other
      }
      return (value, places.all)
    }
    expectEqual(value, 2)
    expectEqual(places, Array(repeating: true, count: 6))
  }

  @Test func workResumedFromAnotherThreadComesBackToTheCallingThread() async {
    let (value, places) = await onThreadOfItsOwn { () -> (String, [Bool]) in
      let caller = pthread_self()
      let places = Recorder<Bool>()
      let value = CallerThreadExecutor.run { () -> String in
        // As a network transfer does: the answer arrives on a thread of its own.
        let answer = await withCheckedContinuation { continuation in
          detachThread {
            places.append(pthread_equal(pthread_self(), caller) != 0)
            continuation.resume(returning: "answer")
          }
        }
        places.append(pthread_equal(pthread_self(), caller) != 0)
        // An unstructured task runs on the global executor; awaiting it does not block it.
        let elsewhere = await Task { pthread_equal(pthread_self(), caller) != 0 }.value
        places.append(elsewhere)
        places.append(pthread_equal(pthread_self(), caller) != 0)
        return answer
      }
      return (value, places.all)
    }
    expectEqual(value, "answer")
    expectEqual(places, [false, true, false, true])
  }
}
