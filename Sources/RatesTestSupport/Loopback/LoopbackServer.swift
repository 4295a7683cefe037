import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// A real HTTP/1.1 server on 127.0.0.1 for tests that need actual sockets:
// configuration headers, keep-alive, timeouts, dropped and truncated replies.
// No dependencies: BSD sockets, one `Thread` for `accept`, one per connection.
// See swift-on-linux.md §3 for the pitfalls this design avoids.

// MARK: - Server

public enum LoopbackServerError: Error, CustomStringConvertible {
  case socket(call: String, errno: Int32)

  public var description: String {
    switch self {
    case .socket(let call, let code):
      return "LoopbackServer: \(call) failed: \(String(cString: strerror(code)))"
    }
  }
}

/// A real HTTP/1.1 server on `127.0.0.1`, at a port chosen by the kernel unless given.
///
/// Each connection has its own thread and supports keep-alive, as the libcurl
/// transport reuses connections. Every request is recorded, then answered by `handler`.
///
/// ```swift
/// let server = try LoopbackServer { request in
///   request.path == "/api/v3/ping" ? .fixture("coingecko/ping.json") : .json("{}", status: 404)
/// }
/// defer { server.stop() }
/// let url = server.baseURL.appendingPathComponent("api/v3/ping")
/// ```
public final class LoopbackServer: @unchecked Sendable {
  /// `http://127.0.0.1:<port>`, without a trailing slash.
  public let baseURL: URL
  /// The port it listens on.
  public let port: Int
  private let state: ServerState

  /// Binds, listens and starts accepting connections.
  /// - Parameters:
  ///   - port: the port to listen on; 0 (the default) lets the kernel choose a free one.
  ///   - handler: answers each request, on the connection's thread.
  /// - Throws: `LoopbackServerError` when a socket call fails (a port in use, say).
  public init(port: Int = 0, handler: @escaping @Sendable (RecordedRequest) -> LoopbackReply)
    throws
  {
    let socket = try LoopbackSocket.bound(port: port, listening: true)
    self.port = socket.port
    baseURL = socket.url
    state = ServerState(listenFD: socket.descriptor, handler: handler)
    state.startAccepting()
  }

  deinit { state.stop() }

  /// All requests received so far, in arrival order.
  public var requests: [RecordedRequest] { state.read { $0.requests } }
  /// How many requests were received so far.
  public var requestCount: Int { state.read { $0.requests.count } }
  /// How many TCP connections were accepted so far (1 for a fully reused keep-alive connection).
  public var connectionCount: Int { state.read { $0.connectionCount } }
  /// How many client connections are open right now.
  public var openConnectionCount: Int { state.read { $0.clients.count } }
  /// How many body bytes `.trickle` replies have sent so far.
  public var trickledByteCount: Int { state.read { $0.trickledBytes } }

  /// Stops accepting, wakes `accept` with `shutdown`, shuts down every client
  /// connection and cuts delayed replies short. Idempotent and quick; also run by `deinit`.
  public func stop() { state.stop() }
}

// MARK: - Internals

private enum Socket {
  #if canImport(Glibc)
    static let stream = Int32(SOCK_STREAM.rawValue)
    static let noSignal = Int32(MSG_NOSIGNAL)
  #else
    static let stream = SOCK_STREAM
    static let noSignal: Int32 = 0  // SO_NOSIGPIPE is set on each socket instead.
  #endif
}

/// A TCP socket bound to `127.0.0.1`, for ``LoopbackServer`` and ``ClosedPort``.
enum LoopbackSocket {
  /// A socket bound to `port` (0: a free one the kernel picks), with the port it got and
  /// `http://127.0.0.1:<port>`. `listening`: a server's socket, with `SO_REUSEADDR`, that
  /// listens; otherwise bound only, so connections to it are refused.
  /// - Throws: `LoopbackServerError` naming the socket call that failed.
  static func bound(port: Int = 0, listening: Bool) throws -> (descriptor: Int32, port: Int, url: URL) {
    let fd = socket(AF_INET, Socket.stream, 0)
    guard fd >= 0 else { throw LoopbackServerError.socket(call: "socket", errno: errno) }
    if listening {
      var yes: Int32 = 1
      _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
      #if canImport(Darwin)
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
      #endif
    }
    var address = sockaddr_in()
    #if canImport(Darwin)
      address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
    #endif
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(clamping: port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let failedCall: String? = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        if bind(fd, $0, length) != 0 { return "bind" }
        if listening, listen(fd, 64) != 0 { return "listen" }
        return getsockname(fd, $0, &length) == 0 ? nil : "getsockname"
      }
    }
    if let failedCall {
      let code = errno
      close(fd)
      throw LoopbackServerError.socket(call: failedCall, errno: code)
    }
    let bound = Int(UInt16(bigEndian: address.sin_port))
    var components = URLComponents()
    components.scheme = "http"
    components.host = "127.0.0.1"
    components.port = bound
    guard let url = components.url else {
      close(fd)
      throw LoopbackServerError.socket(call: "url", errno: 0)
    }
    return (fd, bound, url)
  }
}

/// The shared state, separate from `LoopbackServer` so the threads do not keep the
/// server alive and `deinit` can stop them.
final class ServerState: @unchecked Sendable {
  struct Guarded {
    var stopped = false
    var requests: [RecordedRequest] = []
    var connectionCount = 0
    var clients: Set<Int32> = []
    var trickledBytes = 0
  }

  private let listenFD: Int32
  private let handler: @Sendable (RecordedRequest) -> LoopbackReply
  /// Guards `guarded`; also signalled by `stop()` to wake delayed replies.
  private let condition = NSCondition()
  private var guarded = Guarded()
  /// Posted on every change of `guarded`.
  private let signal = ChangeSignal()

  init(listenFD: Int32, handler: @escaping @Sendable (RecordedRequest) -> LoopbackReply) {
    self.listenFD = listenFD
    self.handler = handler
  }

  @discardableResult
  /// Changes the state under the lock, then posts the change (for `eventually`).
  func withLock<T>(_ body: (inout Guarded) -> T) -> T {
    condition.lock()
    let result = body(&guarded)
    condition.unlock()
    signal.post()
    return result
  }

  /// Reads the state under the lock.
  func read<T>(_ body: (Guarded) -> T) -> T {
    signal.noteRead()
    condition.lock()
    defer { condition.unlock() }
    return body(guarded)
  }

  func startAccepting() {
    let thread = Thread { [self] in acceptLoop() }
    thread.name = "LoopbackServer.accept"
    thread.start()
  }

  func stop() {
    condition.lock()
    defer { condition.unlock() }
    guard !guarded.stopped else { return }
    guarded.stopped = true
    // Only the thread that owns an fd closes it, under this lock, so these
    // numbers cannot have been reused by another test's socket.
    shutdown(listenFD, Int32(SHUT_RDWR))
    for fd in guarded.clients { shutdown(fd, Int32(SHUT_RDWR)) }
    condition.broadcast()
  }

  private var isStopped: Bool { read { $0.stopped } }

  private func acceptLoop() {
    while !isStopped {
      // poll with a timeout as well: shutdown wakes accept on Linux, not everywhere.
      var pfd = pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)
      let ready = poll(&pfd, 1, 200)
      if ready == 0 || (ready < 0 && errno == EINTR) { continue }
      if ready < 0 { break }
      let client = accept(listenFD, nil, nil)
      if client < 0 {
        if errno == EINTR || errno == EAGAIN || errno == ECONNABORTED { continue }
        break
      }
      let accepted: Int? = withLock {
        guard !$0.stopped else { return nil }
        $0.clients.insert(client)
        $0.connectionCount += 1
        return $0.connectionCount - 1
      }
      guard let connection = accepted else {
        close(client)
        break
      }
      #if canImport(Darwin)
        var yes: Int32 = 1
        _ = setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
      #endif
      let thread = Thread { [self] in serve(client, connection: connection) }
      thread.name = "LoopbackServer.connection"
      thread.start()
    }
    withLock { _ in close(listenFD) }
  }

  private func serve(_ fd: Int32, connection: Int) {
    defer {
      withLock {
        $0.clients.remove(fd)
        close(fd)
      }
    }
    var buffer = Data()
    while let head = readHead(fd, &buffer) {
      let keepAlive = head.keepAlive
      let (path, query) = RecordedRequest.split(target: head.target)
      let request: RecordedRequest = withLock {
        let request = RecordedRequest(
          index: $0.requests.count, method: head.method, target: head.target, path: path,
          query: query, headers: head.headers, connection: connection)
        $0.requests.append(request)
        return request
      }
      guard respond(fd, with: handler(request), head: head, keepAlive: keepAlive), keepAlive
      else { return }
    }
  }

  /// Sends `reply`; returns whether the connection may carry another request.
  private func respond(_ fd: Int32, with reply: LoopbackReply, head: Head, keepAlive: Bool)
    -> Bool
  {
    switch reply {
    case .dropConnection:
      return false
    case .delayed(let seconds, let inner):
      guard wait(seconds: seconds) else { return false }
      return respond(fd, with: inner, head: head, keepAlive: keepAlive)
    case .truncated(let inner, let keepBytes):
      guard let (headBytes, body) = resolve(inner, head: head, keepAlive: false) else {
        return false
      }
      _ = send(fd, headBytes + body.prefix(max(0, keepBytes)))
      return false
    case .trickle, .endlessChunked:
      return stream(fd, reply, head: head)
    case .response:
      guard let (headBytes, body) = resolve(reply, head: head, keepAlive: keepAlive) else {
        return false
      }
      return send(fd, headBytes + (head.method == "HEAD" ? Data() : body))
    }
  }

  /// Waits for delays inside `reply` and renders the final response; `nil` when the
  /// reply drops the connection or the server stopped meanwhile.
  private func resolve(_ reply: LoopbackReply, head: Head, keepAlive: Bool) -> (Data, Data)? {
    switch reply {
    case .dropConnection, .trickle, .endlessChunked:
      return nil
    case .delayed(let seconds, let inner):
      guard wait(seconds: seconds) else { return nil }
      return resolve(inner, head: head, keepAlive: keepAlive)
    case .truncated(let inner, _):
      return resolve(inner, head: head, keepAlive: keepAlive)
    case .response(let status, let headers, let body):
      var lines: [String] = []
      let names = Set(headers.keys.map { $0.lowercased() })
      if !names.contains("content-length") { lines.append("Content-Length: \(body.count)") }
      if !names.contains("connection") {
        lines.append("Connection: \(keepAlive ? "keep-alive" : "close")")
      }
      if !names.contains("server") { lines.append("Server: LoopbackServer") }
      return (renderHead(status: status, lines, headers: headers), body)
    }
  }

  /// A response head: the status line, the `leading` lines, then `headers` by name.
  func renderHead(status: Int, _ leading: [String], headers: [String: String]) -> Data {
    let fields = headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
    let lines = ["HTTP/1.1 \(status) \(reasonPhrase(status))"] + leading + fields
    return Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
  }

  /// Sleeps up to `seconds`; returns `false` at once when the server stops.
  func wait(seconds: Double) -> Bool {
    let deadline = Date(timeIntervalSinceNow: max(0, seconds))
    condition.lock()
    defer { condition.unlock() }
    while !guarded.stopped {
      if !condition.wait(until: deadline) { return !guarded.stopped }
    }
    return false
  }

  func send(_ fd: Int32, _ data: Data) -> Bool {
    data.withUnsafeBytes { raw -> Bool in
      guard let base = raw.baseAddress else { return true }
      var offset = 0
      while offset < raw.count {
        let sent = socketSend(fd, base + offset, raw.count - offset, Socket.noSignal)
        if sent < 0 && errno == EINTR { continue }
        if sent <= 0 { return false }
        offset += sent
      }
      return true
    }
  }

  struct Head {
    var method: String
    var target: String
    var version: String
    var headers: [String: String]

    var keepAlive: Bool {
      let connection = headers["connection"]?.lowercased() ?? ""
      if connection.contains("close") { return false }
      return version == "HTTP/1.1" || connection.contains("keep-alive")
    }
  }

  /// Reads one request head (and discards its body); `nil` at end of stream or on error.
  private func readHead(_ fd: Int32, _ buffer: inout Data) -> Head? {
    let separator = Data("\r\n\r\n".utf8)
    while true {
      if let end = buffer.range(of: separator) {
        let headData = buffer[buffer.startIndex..<end.lowerBound]
        buffer.removeSubrange(buffer.startIndex..<end.upperBound)
        guard let text = String(data: headData, encoding: .utf8) else { return nil }
        var lines = text.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ").map(String.init)
        guard requestLine.count == 3 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
          guard let colon = line.firstIndex(of: ":") else { continue }
          let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
          let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
          headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        let bodyLength = Int(headers["content-length"] ?? "") ?? 0
        while buffer.count < bodyLength {
          guard readMore(fd, &buffer) else { return nil }
        }
        buffer.removeSubrange(buffer.startIndex..<(buffer.startIndex + bodyLength))
        return Head(
          method: requestLine[0], target: requestLine[1], version: requestLine[2],
          headers: headers)
      }
      guard buffer.count < 1 << 20, readMore(fd, &buffer) else { return nil }
    }
  }

  private func readMore(_ fd: Int32, _ buffer: inout Data) -> Bool {
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return false }
      buffer.append(contentsOf: chunk[0..<count])
      return true
    }
  }

  /// The reason phrase of `status`; `Status` for one the tests never send.
  func reasonPhrase(_ status: Int) -> String {
    let phrases = [
      200: "OK", 204: "No Content", 301: "Moved Permanently", 302: "Found", 304: "Not Modified",
      307: "Temporary Redirect", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden",
      404: "Not Found", 408: "Request Timeout", 422: "Unprocessable Entity", 429: "Too Many Requests",
      500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable",
      599: "Fixture Missing",
    ]
    return phrases[status] ?? "Status"
  }
}

/// `send` is shadowed by `ServerState.send(_:_:)`; this names the C function.
private func socketSend(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int, _ flags: Int32)
  -> Int
{
  send(fd, pointer, count, flags)
}
