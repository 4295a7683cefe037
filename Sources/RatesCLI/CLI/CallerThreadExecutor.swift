#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs asynchronous work on the thread that calls ``run(_:)``, one job at a time: the
/// jobs of a task that prefers this executor, of its child tasks (task groups, `async let`)
/// and of the default actors they call all run there. Work that never waits on another
/// thread (a command answered from the cache) therefore starts no thread at all, where the
/// global concurrent executor would start its pool; work that does (a network transfer on
/// its own thread, a sleep) parks the calling thread until its job comes back.
///
/// Unstructured tasks (`Task {}`) made inside do not inherit the preference and run on the
/// global executor as before.
final class CallerThreadExecutor: TaskExecutor, @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>
  /// Guarded by `mutex`: the jobs waiting to run, oldest first, and whether the work is done.
  private var jobs: [UnownedJob] = []
  private var finished = false

  private init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    condition = .allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    condition.deinitialize(count: 1)
    condition.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `operation` in a task that prefers a new executor of this kind, running its jobs
  /// on the calling thread, and returns its result once it is done.
  static func run<Value: Sendable>(
    _ operation: @escaping @Sendable () async -> Value
  ) -> Value {
    let executor = CallerThreadExecutor()
    let outcome = Outcome<Value>()
    Task(executorPreference: executor) {
      outcome.value = await operation()
      executor.finish()
    }
    while let job = executor.next() {
      job.runSynchronously(on: executor.asUnownedTaskExecutor())
    }
    // `finish` is the operation's last step: the value is there.
    guard let value = outcome.value else { preconditionFailure("the operation did not finish") }
    return value
  }

  /// Takes a job to run next (any thread).
  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    locked {
      jobs.append(job)
      pthread_cond_signal(condition)
    }
  }

  /// The next job, waiting for one; nil once the operation has finished and no job is left.
  private func next() -> UnownedJob? {
    locked {
      while jobs.isEmpty && !finished { pthread_cond_wait(condition, mutex) }
      return jobs.isEmpty ? nil : jobs.removeFirst()
    }
  }

  /// Marks the operation done, waking ``next()``.
  private func finish() {
    locked {
      finished = true
      pthread_cond_signal(condition)
    }
  }

  private func locked<Result>(_ body: () -> Result) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return body()
  }

  /// The operation's result, written by its task and read by the calling thread after
  /// ``finish()`` (the mutex orders the two).
  private final class Outcome<Value: Sendable>: @unchecked Sendable {
    var value: Value?
  }
}
