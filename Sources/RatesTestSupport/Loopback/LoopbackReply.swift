import Foundation

// MARK: - Replies

/// What the server does with a request.
public enum LoopbackReply: Sendable {
  /// A complete response. `Content-Length` and `Connection` are added unless given.
  case response(status: Int, headers: [String: String], body: Data)
  /// Waits, without blocking other connections, then acts on the inner reply.
  /// `stop()` cuts the wait short and closes the connection without a byte.
  indirect case delayed(seconds: Double, LoopbackReply)
  /// Reads the request, then closes the connection without sending a byte.
  /// On a reused keep-alive connection libcurl first retries once on a new
  /// connection (two requests recorded).
  case dropConnection
  /// Sends the head with the full `Content-Length`, only `keepBytes` of the body, then closes.
  indirect case truncated(LoopbackReply, keepBytes: Int)
  /// Sends the head with the full `Content-Length`, then the body one byte every
  /// `interval` seconds (see LoopbackServer+Streams.swift).
  case trickle(status: Int, headers: [String: String], body: Data, interval: Double)
  /// Sends a chunked body that never ends, `chunk` after `chunk`, until the client
  /// leaves or the server stops.
  case endlessChunked(status: Int, headers: [String: String], chunk: Data)

  /// A JSON body, `Content-Type: application/json; charset=utf-8`.
  public static func json(_ body: String, status: Int = 200, headers: [String: String] = [:])
    -> LoopbackReply
  {
    .response(
      status: status,
      headers: merged(["Content-Type": "application/json; charset=utf-8"], headers),
      body: Data(body.utf8))
  }

  /// A plain-text body, `Content-Type: text/plain; charset=utf-8`.
  public static func text(_ body: String, status: Int, headers: [String: String] = [:])
    -> LoopbackReply
  {
    .response(
      status: status,
      headers: merged(["Content-Type": "text/plain; charset=utf-8"], headers),
      body: Data(body.utf8))
  }

  /// The bytes of `fixtures/<relativePath>`, with a `Content-Type` guessed from the
  /// extension (`.json`, `.txt`, `.html`). A missing fixture gives a 599 reply whose
  /// body names the file, so the test fails with a clear message instead of crashing.
  public static func fixture(
    _ relativePath: String, status: Int = 200, headers: [String: String] = [:]
  )
    -> LoopbackReply
  {
    let url = Fixtures.url(relativePath)
    guard let body = try? Data(contentsOf: url) else {
      return .text("LoopbackServer: fixture not found: \(url.path)", status: 599)
    }
    let type: String
    switch url.pathExtension.lowercased() {
    case "json": type = "application/json; charset=utf-8"
    case "html", "htm": type = "text/html; charset=utf-8"
    case "txt": type = "text/plain; charset=utf-8"
    default: type = "application/octet-stream"
    }
    return .response(status: status, headers: merged(["Content-Type": type], headers), body: body)
  }

  /// `base` overridden by `overrides`, comparing names case-insensitively.
  private static func merged(_ base: [String: String], _ overrides: [String: String])
    -> [String: String]
  {
    var result = base
    for (name, value) in overrides {
      for key in result.keys where key.lowercased() == name.lowercased() {
        result[key] = nil
      }
      result[name] = value
    }
    return result
  }
}
