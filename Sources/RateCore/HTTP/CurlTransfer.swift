import CCurlShim

/// One request's transfer on its own thread: the options, the callbacks
/// that collect the response, and the mapping of libcurl's result.
///
/// An instance lives on the thread running `curl_easy_perform` and is only
/// touched there (the callbacks run on that thread too), so its mutable
/// state needs no lock; only ``control`` is shared with the awaiting task.
final class CurlTransfer {
  /// The most header bytes of one response.
  static let maxHeaderBytes = 256 << 10

  let control: CurlRequestControl
  let maxBodyBytes: Int
  private(set) var body = Data()
  private(set) var headers = HTTPHeaders()
  private var headerBytes = 0
  /// Set when a callback refused data for passing a limit.
  private(set) var overflowed = false

  init(control: CurlRequestControl, maxBodyBytes: Int) {
    self.control = control
    self.maxBodyBytes = max(0, maxBodyBytes)
  }

  // MARK: - Bridge

  /// Runs `request` on a new thread and awaits its response.
  static func send(_ request: HTTPRequest, timeoutSeconds: Int, pool: CurlHandlePool)
    async throws -> HTTPResponse
  {
    let library = try CurlLibrary.shared.get()
    let budget = RequestBudget(
      timeoutSeconds: timeoutSeconds, deadline: request.deadline, now: .now)
    if Task.isCancelled { throw HTTPError.cancelled }
    let control = CurlRequestControl()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        guard control.begin(continuation) else { return }
        let started = detachThread {
          let result = perform(
            request, budget: budget, library: library, pool: pool, control: control)
          control.finish(result)
        }
        if !started {
          control.finish(.failure(.unavailable(detail: "no thread for the request")))
        }
      }
    } onCancel: {
      control.cancel()
    }
  }

  /// Performs `request` on the calling thread, with a handle from `pool`.
  static func perform(
    _ request: HTTPRequest, budget: RequestBudget, library: CurlLibrary, pool: CurlHandlePool,
    control: CurlRequestControl
  ) -> Result<HTTPResponse, HTTPError> {
    let host = request.host
    guard budget.milliseconds > 0 else {
      return .failure(.timedOut(host: host, seconds: budget.reportedSeconds))
    }
    if let problem = problem(with: request) { return .failure(.invalidRequest(detail: problem)) }
    guard let handle = pool.take(library) else { return .failure(.other(host: host, code: 2)) }
    defer { pool.give(handle, library) }

    var list: OpaquePointer?
    defer { library.slistFreeAll(list) }
    for (name, value) in request.headers.fields {
      // "Name;" sends an empty value; "Name:" would remove the header.
      let line = value.isEmpty ? "\(name);" : "\(name): \(value)"
      guard let appended = line.withCString({ library.slistAppend(list, $0) }) else {
        return .failure(.other(host: host, code: 27))
      }
      list = appended
    }

    let transfer = CurlTransfer(control: control, maxBodyBytes: request.maxBodyBytes)
    let user = Unmanaged.passRetained(transfer)
    defer { user.release() }
    let code = transfer.configure(
      handle, library, request: request, budget: budget, headerList: list,
      user: user.toOpaque())
    guard code == 0 else {
      return .failure(
        code == RATES_CURLE_URL_MALFORMAT || code == RATES_CURLE_UNSUPPORTED_PROTOCOL
          ? .invalidRequest(detail: "libcurl refused the URL of \(host)")
          : .other(host: host, code: Int(code)))
    }
    let result = Int(library.easyPerform(handle))
    guard result == RATES_CURLE_OK else {
      return .failure(transfer.error(for: result, host: host, budget: budget))
    }
    let status = library.responseCode(handle)
    guard (100...999).contains(status) else { return .failure(.connectionLost(host: host)) }
    return .success(HTTPResponse(status: status, headers: transfer.headers, body: transfer.body))
  }

  /// Why `request` cannot be sent, or `nil`.
  static func problem(with request: HTTPRequest) -> String? {
    let scheme = request.url.scheme?.lowercased()
    guard scheme == "http" || scheme == "https" else {
      return "only http and https URLs are supported"
    }
    let forbidden: Set<Unicode.Scalar> = ["\r", "\n", "\0"]
    let method = request.method
    guard !method.isEmpty, method.unicodeScalars.allSatisfy({ $0.isASCII && $0 > " " }) else {
      return "invalid method"
    }
    for (name, value) in request.headers.fields {
      guard !name.isEmpty, !name.unicodeScalars.contains(where: { $0 == ":" || $0 <= " " }),
        !value.unicodeScalars.contains(where: forbidden.contains)
      else { return "invalid header field '\(UntrustedText.sanitize(String(name.prefix(40))))'" }
    }
    return nil
  }

  // MARK: - Options

  /// Sets every option of one transfer; returns the first failing CURLcode, or 0.
  func configure(
    _ handle: CurlLibrary.Handle, _ library: CurlLibrary, request: HTTPRequest,
    budget: RequestBudget, headerList: OpaquePointer?, user: UnsafeMutableRawPointer
  ) -> Int {
    let total = budget.milliseconds
    let results: [Int32] = [
      library.set(handle, RATES_CURLOPT_URL, string: request.url.absoluteString),
      library.set(handle, RATES_CURLOPT_NOSIGNAL, 1),
      Self.limitProtocols(handle, library),
      library.set(handle, RATES_CURLOPT_FOLLOWLOCATION, 0),
      library.set(handle, RATES_CURLOPT_TIMEOUT_MS, total),
      library.set(handle, RATES_CURLOPT_CONNECTTIMEOUT_MS, min(total, max(2_000, total / 2))),
      library.set(handle, RATES_CURLOPT_ACCEPT_ENCODING, string: "gzip, deflate"),
      library.set(handle, RATES_CURLOPT_MAXFILESIZE_LARGE, offset: Int64(maxBodyBytes)),
      library.set(handle, RATES_CURLOPT_HTTPHEADER, pointer: UnsafeRawPointer(headerList)),
      library.set(handle, RATES_CURLOPT_WRITEFUNCTION, callback: Self.onBody),
      library.set(handle, RATES_CURLOPT_WRITEDATA, pointer: user),
      library.set(handle, RATES_CURLOPT_HEADERFUNCTION, callback: Self.onHeader),
      library.set(handle, RATES_CURLOPT_HEADERDATA, pointer: user),
      library.set(handle, RATES_CURLOPT_NOPROGRESS, 0),
      library.set(handle, RATES_CURLOPT_XFERINFOFUNCTION, progress: Self.onProgress),
      library.set(handle, RATES_CURLOPT_XFERINFODATA, pointer: user),
      Self.setMethod(request.method, handle, library),
    ]
    return Int(results.first { $0 != RATES_CURLE_OK } ?? 0)
  }

  /// http and https only, for the request and for any redirect; the string
  /// form needs libcurl 7.85, the bit mask serves older versions.
  static func limitProtocols(_ handle: CurlLibrary.Handle, _ library: CurlLibrary) -> Int32 {
    let named = library.set(handle, RATES_CURLOPT_PROTOCOLS_STR, string: "http,https")
    guard named == RATES_CURLE_UNKNOWN_OPTION else { return named }
    library.set(handle, RATES_CURLOPT_REDIR_PROTOCOLS, RATES_CURLPROTO_HTTP_HTTPS)
    return library.set(handle, RATES_CURLOPT_PROTOCOLS, RATES_CURLPROTO_HTTP_HTTPS)
  }

  static func setMethod(_ method: String, _ handle: CurlLibrary.Handle, _ library: CurlLibrary)
    -> Int32
  {
    switch method.uppercased() {
    case "GET": return library.set(handle, RATES_CURLOPT_HTTPGET, 1)
    case "HEAD": return library.set(handle, RATES_CURLOPT_NOBODY, 1)
    default: return library.set(handle, RATES_CURLOPT_CUSTOMREQUEST, string: method)
    }
  }

  // MARK: - Callbacks (on the transfer's thread)

  /// Collects decoded body bytes; refuses them past the limit, which makes
  /// libcurl stop with CURLE_WRITE_ERROR.
  static let onBody: rates_curl_data_callback = { data, size, count, user in
    guard let user else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue()
    let length = size * count
    guard let data, length > 0 else { return 0 }
    guard transfer.body.count + length <= transfer.maxBodyBytes else {
      transfer.overflowed = true
      return 0
    }
    let bytes = UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self)
    transfer.body.append(bytes, count: length)
    return length
  }

  /// Collects header lines, keeping only the last response's (an interim
  /// 1xx or a proxy's answer comes first).
  static let onHeader: rates_curl_data_callback = { data, size, count, user in
    guard let user else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue()
    let length = size * count
    guard let data, length > 0 else { return 0 }
    transfer.headerBytes += length
    guard transfer.headerBytes <= maxHeaderBytes else {
      transfer.overflowed = true
      return 0
    }
    let bytes = UnsafeRawBufferPointer(start: data, count: length)
    transfer.addHeaderLine(String(decoding: bytes, as: UTF8.self))
    return length
  }

  /// Aborts the transfer once the awaiting task is cancelled.
  static let onProgress: rates_curl_xferinfo_callback = { user, _, _, _, _ in
    guard let user else { return 1 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue()
    return transfer.control.isCancelled ? 1 : 0
  }

  func addHeaderLine(_ raw: String) {
    let line = raw.trimming(.characters("\r\n"))
    if line.hasPrefix("HTTP/") {
      headers = HTTPHeaders()
      return
    }
    guard !line.isEmpty else { return }
    if line.first == " " || line.first == "\t", let last = headers.fields.last {
      // An obsolete folded continuation of the previous field.
      var fields = headers.fields.dropLast().map { $0 }
      fields.append((last.name, last.value + " " + line.trimming(.whitespaces)))
      headers = HTTPHeaders(fields)
      return
    }
    guard let colon = line.firstIndex(of: ":") else { return }
    let name = line[..<colon].trimming(.whitespaces)
    let value = line[line.index(after: colon)...].trimming(.whitespaces)
    headers.append(name: name, value: value)
  }

  // MARK: - Errors

  /// The ``HTTPError`` for a failed `curl_easy_perform`.
  func error(for code: Int, host: String, budget: RequestBudget) -> HTTPError {
    switch code {
    case RATES_CURLE_WRITE_ERROR where overflowed, RATES_CURLE_FILESIZE_EXCEEDED:
      return .bodyTooLarge(host: host, limit: maxBodyBytes)
    case RATES_CURLE_ABORTED_BY_CALLBACK where control.isCancelled:
      return .cancelled
    case RATES_CURLE_OPERATION_TIMEDOUT:
      return .timedOut(host: host, seconds: budget.reportedSeconds)
    case RATES_CURLE_COULDNT_CONNECT:
      return .cannotConnect(host: host)
    case RATES_CURLE_COULDNT_RESOLVE_HOST, RATES_CURLE_COULDNT_RESOLVE_PROXY:
      return .cannotFindHost(host: host)
    case RATES_CURLE_GOT_NOTHING, RATES_CURLE_RECV_ERROR, RATES_CURLE_SEND_ERROR,
      RATES_CURLE_PARTIAL_FILE, RATES_CURLE_HTTP2, RATES_CURLE_HTTP2_STREAM,
      RATES_CURLE_WEIRD_SERVER_REPLY:
      return .connectionLost(host: host)
    case RATES_CURLE_SSL_CONNECT_ERROR, RATES_CURLE_PEER_FAILED_VERIFICATION:
      return .secureConnectionFailed(host: host)
    case RATES_CURLE_UNSUPPORTED_PROTOCOL, RATES_CURLE_URL_MALFORMAT:
      return .invalidRequest(detail: "libcurl refused the URL of \(host)")
    default:
      return .other(host: host, code: code)
    }
  }
}
