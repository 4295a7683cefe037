import Foundation
import Synchronization

/// A handler that can be switched to failing mid-test: it passes requests to
/// the handler it wraps until ``fail(with:)``, then answers every request with
/// that reply. Shared between a test and a server's threads.
///
/// ```swift
/// let toggle = ReplySwitch()
/// let server = try LoopbackServer(handler: toggle.wrapping(FakeAPIs.handler(now: { Date() })))
/// toggle.fail(with: .dropConnection)
/// ```
public final class ReplySwitch: Sendable {
  private let reply = Mutex<LoopbackReply?>(nil)

  /// A switch that does not fail yet.
  public init() {}

  /// From now on, answers every request with `reply`; `nil` goes back to the wrapped handler.
  public func fail(with reply: LoopbackReply?) {
    self.reply.withLock { $0 = reply }
  }

  /// The reply every request gets, if the switch is failing.
  public var failure: LoopbackReply? {
    reply.withLock { $0 }
  }

  /// `handler`, unless the switch is failing.
  public func wrapping(_ handler: @escaping @Sendable (RecordedRequest) -> LoopbackReply)
    -> @Sendable (RecordedRequest) -> LoopbackReply
  {
    { [self] request in failure ?? handler(request) }
  }
}
