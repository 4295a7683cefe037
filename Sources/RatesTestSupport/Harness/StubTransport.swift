import Foundation
import RateCore

/// A transport that answers every request from a closure, recording each
/// request: the first choice for provider and command tests.
///
/// ```swift
/// let stub = StubTransport { request, index in (200, [:], #"{"bitcoin":{"eur":1}}"#) }
/// let client = CoinGeckoClient(baseURL: url, key: nil, transport: stub.transport)
/// ```
public struct StubTransport: Sendable {
  /// A reply: status, headers and body text.
  public typealias Reply = (status: Int, headers: [String: String], body: String)
  /// The requests received, in order.
  public let requests = Recorder<HTTPRequest>()
  /// Answers a request, given its index.
  public let respond: @Sendable (HTTPRequest, Int) throws -> Reply

  /// Creates a stub answering with `respond`.
  public init(_ respond: @escaping @Sendable (HTTPRequest, Int) throws -> Reply) {
    self.respond = respond
  }

  /// Creates a stub answering every request the same way.
  public init(status: Int = 200, headers: [String: String] = [:], body: String) {
    self.init { _, _ in (status, headers, body) }
  }

  /// The transport.
  public var transport: HTTPTransport {
    HTTPTransport { [requests, respond] request in
      let index = requests.count
      requests.append(request)
      let reply = try respond(request, index)
      return HTTPResponse(
        status: reply.status,
        headers: HTTPHeaders(reply.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }),
        body: Data(reply.body.utf8))
    }
  }
}

extension HTTPTransport {
  /// A transport that never reaches anything.
  public static let unreachable = HTTPTransport { request in
    throw HTTPError.cannotConnect(host: request.url.host ?? "?")
  }
}

extension HTTPRequest {
  /// The query's items by name.
  public var queryItems: [String: String] {
    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
      return [:]
    }
    var items: [String: String] = [:]
    for item in components.queryItems ?? [] { items[item.name] = item.value ?? "" }
    return items
  }
}
