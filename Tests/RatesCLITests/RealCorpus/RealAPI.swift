import RateCore
import RatesCLIHarness
import RatesTestSupport

/// A network that answers `rates` with real recorded bodies from
/// `fixtures/real/` (paths relative to `fixtures/`), each with its recorded status: the first route whose
/// path fragment the request's path contains answers it.
struct RealAPI: Sendable {
  struct Route: Sendable {
    var fragment: String
    var status: Int
    var file: String
    var headers: [String: String] = [:]
  }

  let routes: [Route]
  /// The paths requested, in order.
  let paths = Recorder<String>()

  init(_ routes: [Route]) {
    self.routes = routes
  }

  var transport: HTTPTransport {
    HTTPTransport { [routes, paths] request in
      paths.append(request.url.path)
      guard let route = routes.first(where: { request.url.path.contains($0.fragment) }) else {
        return HTTPResponse(status: 404, body: Data("no route".utf8))
      }
      return HTTPResponse(
        status: route.status,
        headers: HTTPHeaders(route.headers.map { (name: $0.key, value: $0.value) }),
        body: try Fixtures.data(route.file))
    }
  }

  /// How many requests went to a path containing `fragment`.
  func count(_ fragment: String) -> Int {
    paths.all.filter { $0.contains(fragment) }.count
  }

  /// A harness on this network at `now` (ISO 8601), with `environment`.
  func harness(now: String, environment: [String: String] = [:]) throws -> CLIHarness {
    let date = try requireDate(now)
    return try CLIHarness(transport: transport, clock: TestClock(now: date), environment: environment)
  }
}

/// `ISO8601.parse` or a thrown error, for test set-up.
func requireDate(_ text: String) throws -> Date {
  guard let date = ISO8601.parse(text) else { throw RealAPIError.badDate(text) }
  return date
}

enum RealAPIError: Error {
  case badDate(String)
}
