import Foundation

// MARK: - Recorded requests

/// One request as the server received it.
public struct RecordedRequest: Sendable {
  /// Position among all requests this server received, from 0.
  public let index: Int
  /// `GET`, `POST`, … as sent.
  public let method: String
  /// The request target as sent: the path plus `?query`, still percent-encoded.
  public let target: String
  /// The part of `target` before `?`, percent-decoded.
  public let path: String
  /// Query items, percent-decoded (`+` is kept as `+`); a repeated name keeps its last value.
  public let query: [String: String]
  /// Header fields with lower-cased names; a repeated field keeps its values joined by `, `.
  public let headers: [String: String]
  /// The connection that carried it: its position among the connections the server
  /// accepted, from 0 (always 0 for requests not from a `LoopbackServer`).
  public var connection = 0
}

extension RecordedRequest {
  /// Builds a request from a raw target such as `/api/v3/ping?x=1`, the way the
  /// server does; handy to call a handler directly without a server.
  public init(
    index: Int = 0, method: String = "GET", target: String, headers: [String: String] = [:]
  ) {
    let (path, query) = RecordedRequest.split(target: target)
    self.init(
      index: index, method: method, target: target, path: path, query: query,
      headers: Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
    )
  }

  public static func split(target: String) -> (path: String, query: [String: String]) {
    let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    let rawPath = parts.first.map(String.init) ?? ""
    var query: [String: String] = [:]
    if parts.count == 2 {
      for item in parts[1].split(separator: "&") where !item.isEmpty {
        let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(pair[0])
        let value = pair.count == 2 ? String(pair[1]) : ""
        query[name.removingPercentEncoding ?? name] = value.removingPercentEncoding ?? value
      }
    }
    return (rawPath.removingPercentEncoding ?? rawPath, query)
  }
}
