/// HTTP header fields in order, looked up case-insensitively.
///
/// A small value of our own rather than Foundation's request and response
/// types, so that nothing in `RateCore` needs `FoundationNetworking` on Linux.
public struct HTTPHeaders: Sendable, Equatable, ExpressibleByDictionaryLiteral {
  /// The fields as written, in order; a name may repeat.
  public private(set) var fields: [(name: String, value: String)]

  /// Creates headers from `fields`, keeping their order.
  public init(_ fields: [(name: String, value: String)] = []) {
    self.fields = fields
  }

  /// Creates headers from a dictionary literal, in the literal's order.
  public init(dictionaryLiteral elements: (String, String)...) {
    self.fields = elements.map { (name: $0.0, value: $0.1) }
  }

  /// The value of the first field called `name` (any case), or `nil`.
  ///
  /// Setting replaces every field of that name with one, at the place of the
  /// first; setting `nil` removes them.
  public subscript(name: String) -> String? {
    get {
      let key = name.lowercased()
      return fields.first { $0.name.lowercased() == key }?.value
    }
    set {
      let key = name.lowercased()
      let first = fields.firstIndex { $0.name.lowercased() == key }
      fields.removeAll { $0.name.lowercased() == key }
      guard let newValue else { return }
      fields.insert((name, newValue), at: min(first ?? fields.count, fields.count))
    }
  }

  /// Adds a field at the end, even if one of that name exists.
  public mutating func append(name: String, value: String) {
    fields.append((name, value))
  }

  public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
    lhs.fields.count == rhs.fields.count
      && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
  }
}

/// One HTTP request: what `rates` asks of a server.
public struct HTTPRequest: Sendable, Equatable {
  /// The body limit when a request names none: 4 MiB of decoded bytes.
  public static let defaultMaxBodyBytes = 4 << 20

  /// The absolute `http` or `https` URL.
  public var url: URL
  /// `GET` unless set otherwise; `rates` sends no request bodies.
  public var method = "GET"
  /// Header fields to send.
  public var headers: HTTPHeaders = [:]
  /// The most body bytes, after decompression, the response may have.
  public var maxBodyBytes = HTTPRequest.defaultMaxBodyBytes
  /// The instant by which the request must be over, whatever the transport's
  /// own timeout; `nil` leaves the transport's timeout alone.
  public var deadline: ContinuousClock.Instant?
  /// Texts that mark a 5xx answer as final: a body that starts with one of
  /// them says something asking again cannot change (CoinDesk answers a
  /// range with no data with `500 No results returned from database`), so
  /// it is not retried.
  public var finalServerErrors: [String] = []

  /// The URL's host, or `?`: for messages.
  public var host: String { url.host ?? "?" }
}

/// One HTTP response: the status, the header fields of the final response and
/// the decoded body.
public struct HTTPResponse: Sendable, Equatable {
  /// The status code, such as 200 or 429.
  public var status: Int
  /// The header fields, looked up case-insensitively.
  public var headers: HTTPHeaders
  /// The body, already decompressed.
  public var body: Data

  /// Creates a response.
  public init(status: Int, headers: HTTPHeaders = [:], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// Whether the status is 2xx.
  public var isSuccess: Bool { (200...299).contains(status) }
}
