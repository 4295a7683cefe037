import Foundation
import RateCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An inline transport: each request is recorded and answered by `respond`,
/// which receives the request and its 0-based index.
///
/// ```swift
/// let stub = StubTransport { request, index in index == 0 ? (503, [:], "busy") : (200, [:], "{}") }
/// let client = CoinGeckoClient(transport: stub.transport)
/// ```
public struct StubTransport: Sendable {
  /// A canned reply.
  public typealias Reply = (status: Int, headers: [String: String], body: String)
  /// Every request sent through ``transport``, in order.
  public let requests = Recorder<URLRequest>()
  /// Answers a request, given its 0-based index; may throw an `HTTPError`.
  public let respond: @Sendable (URLRequest, Int) throws -> Reply

  /// A transport answering with `respond`.
  public init(_ respond: @escaping @Sendable (URLRequest, Int) throws -> Reply) {
    self.respond = respond
  }

  /// Answers every request with the same reply.
  public init(status: Int = 200, headers: [String: String] = [:], body: String) {
    self.init { _, _ in (status, headers, body) }
  }

  /// The transport to inject.
  public var transport: HTTPTransport {
    HTTPTransport { [requests, respond] request in
      let index = requests.count
      requests.append(request)
      let reply = try respond(request, index)
      let url = request.url ?? URL(fileURLWithPath: "/")
      guard
        let response = HTTPURLResponse(
          url: url, statusCode: reply.status, httpVersion: "HTTP/1.1", headerFields: reply.headers)
      else { throw HTTPError.other(host: "stub", code: -1) }
      return (Data(reply.body.utf8), response)
    }
  }
}

extension HTTPTransport {
  /// A transport with no network behind it: every request fails to connect.
  public static let unreachable = HTTPTransport { request in
    throw HTTPError.cannotConnect(host: request.url?.host ?? "?")
  }
}

extension URLRequest {
  /// The query items by name.
  public var queryItems: [String: String] {
    guard let url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
      return [:]
    }
    var items: [String: String] = [:]
    for item in components.queryItems ?? [] { items[item.name] = item.value ?? "" }
    return items
  }
}
