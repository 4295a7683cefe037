import Synchronization

extension HTTPTransport {
  /// A transport over libcurl's easy interface, the one every platform runs
  /// (``CurlLibrary`` loads the system's libcurl). Not `URLSession`: on Linux
  /// it spins a core while it waits, can deadlock when a request is
  /// cancelled, enforces no total deadline and buffers any body whole
  /// (swift-on-linux.md §1); one transport means the timeout, body-cap and
  /// cancellation tests cover what macOS runs too.
  ///
  /// Each request runs `curl_easy_perform` on a thread of its own, not on
  /// the Swift cooperative pool, and is bridged back with a continuation.
  /// Per request: a hard total deadline (`CURLOPT_TIMEOUT_MS`, so a body
  /// trickling in byte by byte still ends on time) and a shorter connect
  /// timeout; http and https only; redirects returned, never followed; gzip
  /// and deflate accepted, with ``HTTPRequest/maxBodyBytes`` counted after
  /// decompression; no cookies, cache or files; no signals. Cancelling the
  /// task resumes the caller at once with ``HTTPError/cancelled``; the
  /// thread sees a flag from libcurl's progress callback and ends its
  /// transfer within about a second. Nothing waits on a lock that a
  /// transfer holds, so cancelling cannot deadlock.
  ///
  /// libcurl is loaded on the first request; when it cannot be, each request
  /// throws ``HTTPError/unavailable(detail:)``.
  ///
  /// - Parameter timeoutSeconds: the whole time one request may take, 1 to
  ///   86,400 seconds.
  static func curl(timeoutSeconds: Int) -> HTTPTransport {
    let pool = CurlHandlePool()
    return HTTPTransport { request in
      try await CurlTransfer.send(request, timeoutSeconds: timeoutSeconds, pool: pool)
    }
  }
}

/// Idle easy handles of one transport, kept for the next request: libcurl
/// keeps a handle's connections open, so requests in sequence reuse them
/// (HTTP keep-alive, TLS sessions) as `URLSession` would.
///
/// A handle is used by one thread at a time: taken out here, used by one
/// transfer, given back. Handles are kept as their addresses, which are
/// `Sendable`, rather than as pointers.
final class CurlHandlePool: Sendable {
  /// The most idle handles kept; more are cleaned up.
  static let capacity = 4
  private let idle = Mutex<[Int]>([])

  /// An idle handle, or a new one; `nil` when libcurl cannot make one.
  func take(_ library: CurlLibrary) -> CurlLibrary.Handle? {
    if let address = idle.withLock({ $0.popLast() }),
      let handle = CurlLibrary.Handle(bitPattern: address)
    {
      return handle
    }
    return library.easyInit()
  }

  /// Returns `handle` for reuse, or cleans it up when enough are idle. A
  /// kept handle is reset at once, so it holds no pointer to the finished
  /// transfer's header list or callback data (its connections stay open).
  func give(_ handle: CurlLibrary.Handle, _ library: CurlLibrary) {
    library.easyReset(handle)
    let address = Int(bitPattern: handle)
    let kept = idle.withLock { idle -> Bool in
      guard idle.count < Self.capacity else { return false }
      idle.append(address)
      return true
    }
    if !kept { library.easyCleanup(handle) }
  }

  deinit {
    // A pool that never lent a handle must not load libcurl on its way out:
    // a command answered from the cache never touches the library.
    let addresses = idle.withLock { $0 }
    guard !addresses.isEmpty, case .success(let library) = CurlLibrary.shared else { return }
    for address in addresses {
      library.easyCleanup(CurlLibrary.Handle(bitPattern: address))
    }
  }
}

/// The meeting point of an awaiting task and the thread running its
/// transfer: whichever of "finished", "failed" and "cancelled" happens
/// first resumes the continuation, exactly once.
final class CurlRequestControl: Sendable {
  private enum State {
    case idle
    case waiting(CheckedContinuation<HTTPResponse, any Error>)
    case done
  }

  private let cancelled = Atomic<Bool>(false)
  private let state = Mutex<State>(.idle)

  /// Whether the task was cancelled; read by the progress callback.
  var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

  /// Stores the continuation; returns `false` (after resuming it with
  /// ``HTTPError/cancelled``) when the task is already cancelled.
  func begin(_ continuation: CheckedContinuation<HTTPResponse, any Error>) -> Bool {
    let proceed = state.withLock { state -> Bool in
      guard case .idle = state, !isCancelled else {
        state = .done
        return false
      }
      state = .waiting(continuation)
      return true
    }
    if !proceed { continuation.resume(throwing: HTTPError.cancelled) }
    return proceed
  }

  /// Marks the request cancelled and resumes the caller at once.
  func cancel() {
    cancelled.store(true, ordering: .relaxed)
    finish(.failure(.cancelled))
  }

  /// Resumes the caller with `result`, unless it was resumed already.
  func finish(_ result: Result<HTTPResponse, HTTPError>) {
    let continuation = state.withLock { state -> CheckedContinuation<HTTPResponse, any Error>? in
      guard case .waiting(let continuation) = state else {
        state = .done
        return nil
      }
      state = .done
      return continuation
    }
    continuation?.resume(with: result.mapError { $0 })
  }
}
