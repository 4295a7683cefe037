/// The request side shared by every provider: builds URLs under a base URL,
/// sets the common headers, turns transport failures into
/// ``ProviderError/network(provider:_:)`` and checks statuses, the same way
/// for every provider (``check(_:reading:)``).
public struct ProviderHTTP: Sendable {
  let provider: Provider
  let baseURL: URL
  let transport: HTTPTransport
  /// Extra headers, such as an API key. Never logged or echoed.
  let headers: [String: String]

  /// Creates the request side for `provider` under `baseURL`.
  public init(provider: Provider, baseURL: URL, transport: HTTPTransport, headers: [String: String]) {
    self.provider = provider
    self.baseURL = baseURL
    self.transport = transport
    self.headers = headers
  }

  /// The `User-Agent` every request carries.
  static let userAgent = "rates/\(RatesVersion.current)"

  /// Sends a GET for `path` (relative to the base URL) with `query`.
  ///
  /// - Parameter finalServerErrors: 5xx body texts that are not retried
  ///   (``HTTPRequest/finalServerErrors``).
  public func get(
    _ path: String, query: [(String, String)] = [], finalServerErrors: [String] = []
  ) async throws -> HTTPResponse {
    var request = try makeRequest(path, query: query)
    request.finalServerErrors = finalServerErrors
    do {
      return try await transport.send(request)
    } catch let error as HTTPError {
      throw ProviderError.network(provider: .provider(provider), error)
    }
  }

  /// The request for `path` and `query`, with headers.
  func makeRequest(_ path: String, query: [(String, String)]) throws -> HTTPRequest {
    let base =
      baseURL.absoluteString.hasSuffix("/")
      ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
    guard var components = URLComponents(string: base + path) else {
      throw ProviderError.unsupported(provider: .provider(provider), detail: "invalid base URL '\(base)'")
    }
    if !query.isEmpty {
      components.percentEncodedQueryItems = query.map {
        URLQueryItem(name: $0.0, value: Self.encodeQueryValue($0.1))
      }
    }
    guard let url = components.url else {
      throw ProviderError.unsupported(provider: .provider(provider), detail: "invalid URL for \(path)")
    }
    var fields: HTTPHeaders = ["Accept": "application/json", "User-Agent": Self.userAgent]
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) { fields[name] = value }
    return HTTPRequest(url: url, method: "GET", headers: fields)
  }

  /// Percent-encodes a query value, keeping `,` readable (CoinGecko lists).
  static func encodeQueryValue(_ value: String) -> String {
    value.percentEncoded(keeping: "-._~,")
  }

  /// The detail of a refusal of an HTML page served where JSON was expected.
  public static let htmlInsteadOfJSON = "an HTML page where JSON was expected"

  /// Decodes `type` from a successful body, mapping failures to
  /// ``ProviderError/malformedResponse(provider:endpoint:detail:)``.
  func decode<T: Decodable>(_ type: T.Type, from data: Data, endpoint: String) throws -> T {
    do {
      return try JSONCoders.decoder().decode(type, from: data)
    } catch let error as DecodingError {
      // A proxy's or captive portal's page served with 200: say so rather than "not JSON".
      let start = data.prefix(64).first { !(" \t\r\n" as String).utf8.contains($0) }
      let detail = start == UInt8(ascii: "<") ? Self.htmlInsteadOfJSON : error.summary
      throw ProviderError.malformedResponse(provider: .provider(provider), endpoint: endpoint, detail: detail)
    }
  }
}

// MARK: - Statuses

/// What a provider makes of a non-2xx response: the error its body stands
/// for, if any, and its message for ``ProviderError/httpStatus(provider:status:message:)``.
struct ErrorBodyReading {
  var error: ProviderError?
  var message: String
}

extension ProviderHTTP {
  /// The one status check of every provider.
  ///
  /// In order: 2xx passes; 429 is ``ProviderError/rateLimited(provider:retryAfter:)``
  /// with the capped `Retry-After`; a 3xx is an error, since redirects are
  /// never followed (an API key must not travel to another host); then the
  /// provider's own `reading` of the body; then 5xx is
  /// ``ProviderError/serverError(provider:status:)``; anything else is
  /// ``ProviderError/httpStatus(provider:status:message:)`` with the
  /// provider's message.
  func check(_ response: HTTPResponse, reading: (HTTPResponse) -> ErrorBodyReading) throws {
    let status = response.status
    guard !response.isSuccess else { return }
    if status == 429 {
      throw ProviderError.rateLimited(
        provider: .provider(provider), retryAfter: RetryAfter.seconds(from: response))
    }
    if (300...399).contains(status) {
      let target = response.headers["Location"].map {
        " to " + UntrustedText.sanitize(String($0.prefix(100)))
      }
      throw ProviderError.httpStatus(
        provider: .provider(provider), status: status,
        message: "redirect\(target ?? "") not followed: check the provider URL setting")
    }
    let body = reading(response)
    if let error = body.error { throw error }
    if (500...599).contains(status) {
      throw ProviderError.serverError(provider: .provider(provider), status: status)
    }
    throw ProviderError.httpStatus(provider: .provider(provider), status: status, message: body.message)
  }

  /// The start of a plain-text body, trimmed; empty for an HTML page, which
  /// says nothing a terminal should show.
  static func text(of body: Data) -> String {
    let text = String(decoding: body.prefix(300), as: UTF8.self)
      .trimming(.whitespacesAndNewlines)
    return text.hasPrefix("<") ? "" : text
  }
}

extension DecodingError {
  /// A short description naming the JSON path, such as
  /// `at prices[3][1]: expected a number`.
  var summary: String {
    func path(_ codingPath: [any CodingKey]) -> String {
      guard !codingPath.isEmpty else { return "top level" }
      var text = ""
      for key in codingPath {
        if let index = key.intValue {
          text += "[\(index)]"
        } else {
          // Keys can come from the response itself (ids, dates): sanitize and cap them.
          let name = UntrustedText.sanitize(String(key.stringValue.prefix(40)))
          text += text.isEmpty ? name : ".\(name)"
        }
      }
      return text
    }
    switch self {
    case .typeMismatch(let type, let context):
      return "at \(path(context.codingPath)): expected \(type)"
    case .valueNotFound(let type, let context):
      return "at \(path(context.codingPath)): expected \(type), found null"
    case .keyNotFound(let key, let context):
      return "at \(path(context.codingPath)): missing key '\(key.stringValue)'"
    case .dataCorrupted(let context):
      if context.codingPath.isEmpty { return "not valid JSON, possibly truncated" }
      return "at \(path(context.codingPath)): "
        + UntrustedText.sanitize(String(context.debugDescription.prefix(120)))
    @unknown default:
      return "undecodable"
    }
  }
}

extension ProviderHTTP {
  /// Whether `id` looks like a provider id (`bitcoin`, `usd-coin`, `wrapped-steth`):
  /// lower-case ASCII letters, digits, `.`, `_` and `-`. Anything else from an
  /// API is dropped rather than printed, stored or used in a file name.
  static func isPlausibleID(_ id: String) -> Bool {
    !id.isEmpty && id.count <= 100
      && id.allSatisfy { ($0.isASCII && ($0.isLowercase || $0.isNumber)) || "._-".contains($0) }
  }
}

/// The version `rates` reports in `--version` and its `User-Agent`.
public enum RatesVersion {
  /// The current version.
  public static let current = "0.1.0"
}
