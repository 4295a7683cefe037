import Foundation
@testable import RateCore
@testable import RatesCLI

/// A thread-safe list, for recording what closures under test were called with.
final class Recorder<Element: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [Element] = []

  func append(_ element: Element) {
    lock.lock()
    defer { lock.unlock() }
    storage.append(element)
  }

  var all: [Element] {
    lock.lock()
    defer { lock.unlock() }
    return storage
  }

  var count: Int { all.count }
}

/// An inline transport: each request is recorded and answered by `respond`,
/// which receives the request and its 0-based index.
struct StubTransport: Sendable {
  typealias Reply = (status: Int, headers: [String: String], body: String)
  let requests = Recorder<HTTPRequest>()
  let respond: @Sendable (HTTPRequest, Int) throws -> Reply

  init(_ respond: @escaping @Sendable (HTTPRequest, Int) throws -> Reply) {
    self.respond = respond
  }

  /// Answers every request with the same reply.
  init(status: Int = 200, headers: [String: String] = [:], body: String) {
    self.init { _, _ in (status, headers, body) }
  }

  var transport: HTTPTransport {
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

/// Reads a file under `fixtures/` as text, for stub replies.
func fixtureText(_ path: String) throws -> String {
  try Fixtures.string(path)
}

/// A fresh directory under the system's temporary directory.
func makeTemporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("rates-tests-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

extension HTTPRequest {
  /// The query items by name.
  var queryItems: [String: String] {
    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
      return [:]
    }
    var items: [String: String] = [:]
    for item in components.queryItems ?? [] { items[item.name] = item.value ?? "" }
    return items
  }
}

/// 2024-06-10 06:13:20 UTC, a fixed "now" for unit tests.
let fixedNow = Date(timeIntervalSince1970: 1_718_000_000)
