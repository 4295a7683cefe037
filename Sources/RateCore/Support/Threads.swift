import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `body` on a new detached thread of its own (`Thread.detachNewThread`
/// is Foundation's, outside FoundationEssentials): for blocking work that
/// must not hold a thread of the cooperative pool. False when the system
/// could not make a thread (`body` then never runs).
@discardableResult
package func detachThread(_ body: @escaping @Sendable () -> Void) -> Bool {
  final class Box: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
  let context = Unmanaged.passRetained(Box(body)).toOpaque()
  #if canImport(Darwin)
    var thread: pthread_t?
    let status = pthread_create(
      &thread, nil,
      { context in
        Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body()
        return nil
      }, context)
  #else
    var thread = pthread_t()
    let status = pthread_create(
      &thread, nil,
      { context in
        guard let context else { return nil }
        Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body()
        return nil
      }, context)
  #endif
  guard status == 0 else {
    Unmanaged<Box>.fromOpaque(context).release()
    return false
  }
  #if canImport(Darwin)
    if let thread { pthread_detach(thread) }
  #else
    pthread_detach(thread)
  #endif
  return true
}

/// A value made on first use, once, whichever thread asks first: for what a
/// command may never need (the ECB snapshot's index).
package final class OnFirstUse<Value: Sendable>: Sendable {
  private let make: @Sendable () -> Value
  private let made = Mutex<Value?>(nil)

  /// Keeps `make` for the first read of ``value``.
  package init(_ make: @escaping @Sendable () -> Value) { self.make = make }

  /// The value, made by the first call.
  package var value: Value {
    made.withLock { made in
      if let value = made { return value }
      let value = make()
      made = value
      return value
    }
  }
}
