import CCurlShim

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// libcurl's easy interface, loaded with `dlopen` when first needed (the
/// system's `libcurl.so.4` on Linux, `/usr/lib/libcurl.4.dylib` on macOS), so
/// `rates` links neither libcurl nor Foundation's networking and a command
/// answered from the cache never loads them. Every platform runs this one
/// transport, with the same timeout, body cap and cancellation.
///
/// Only the handful of functions `rates` calls are looked up; their
/// prototypes and constants are declared by hand in `CCurlShim`.
struct CurlLibrary: Sendable {
  typealias Handle = UnsafeMutableRawPointer

  let easyInit: @convention(c) () -> Handle?
  let easyCleanup: @convention(c) (Handle?) -> Void
  let easyReset: @convention(c) (Handle?) -> Void
  let easyPerform: @convention(c) (Handle?) -> Int32
  let slistAppend: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> OpaquePointer?
  let slistFreeAll: @convention(c) (OpaquePointer?) -> Void
  /// `curl_easy_setopt`, variadic: called through the `CCurlShim` helpers.
  let setopt: rates_curl_function
  /// `curl_easy_getinfo`, variadic: called through the `CCurlShim` helpers.
  let getinfo: rates_curl_function

  /// The library, loaded and globally initialised once per process
  /// (`static let` is initialised exactly once, thread-safely), or why not.
  static let shared: Result<CurlLibrary, HTTPError> = load()

  #if canImport(Darwin)
    /// macOS's own libcurl. It lives in the dyld shared cache (no file need
    /// exist at that path since macOS 11), where `dlopen` finds it by this path.
    static let path = "/usr/lib/libcurl.4.dylib"
    /// What to do when it cannot be loaded (every macOS ships it).
    static let remedy = "it is part of macOS: update or repair the system"
  #else
    /// The system's libcurl, found through the dynamic linker's search path.
    static let path = "libcurl.so.4"
    /// What to do when it cannot be loaded.
    static let remedy = "install libcurl4 (Debian, Ubuntu) or libcurl (Fedora, Alpine)"
  #endif

  /// Loads libcurl from ``path`` and runs `curl_global_init(CURL_GLOBAL_ALL)`.
  private static func load() -> Result<CurlLibrary, HTTPError> {
    guard let library = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
      let reason = dlerror().map { String(cString: $0) } ?? "not found"
      return .failure(.unavailable(detail: "cannot load \(path) (\(reason)): \(remedy)"))
    }
    func symbol<T>(_ name: String, as type: T.Type) -> T? {
      dlsym(library, name).map { unsafeBitCast($0, to: type) }
    }
    typealias GlobalInit = @convention(c) (Int) -> Int32
    guard let globalInit = symbol("curl_global_init", as: GlobalInit.self),
      let easyInit = symbol("curl_easy_init", as: (@convention(c) () -> Handle?).self),
      let easyCleanup = symbol("curl_easy_cleanup", as: (@convention(c) (Handle?) -> Void).self),
      let easyReset = symbol("curl_easy_reset", as: (@convention(c) (Handle?) -> Void).self),
      let easyPerform = symbol("curl_easy_perform", as: (@convention(c) (Handle?) -> Int32).self),
      let slistAppend = symbol(
        "curl_slist_append",
        as: (@convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> OpaquePointer?).self),
      let slistFreeAll = symbol(
        "curl_slist_free_all", as: (@convention(c) (OpaquePointer?) -> Void).self),
      let setopt = symbol("curl_easy_setopt", as: rates_curl_function.self),
      let getinfo = symbol("curl_easy_getinfo", as: rates_curl_function.self)
    else {
      return .failure(.unavailable(detail: "\(path) lacks a needed function"))
    }
    guard globalInit(Int(RATES_CURL_GLOBAL_ALL)) == RATES_CURLE_OK else {
      return .failure(.unavailable(detail: "curl_global_init failed"))
    }
    return .success(
      CurlLibrary(
        easyInit: easyInit, easyCleanup: easyCleanup, easyReset: easyReset,
        easyPerform: easyPerform, slistAppend: slistAppend, slistFreeAll: slistFreeAll,
        setopt: setopt, getinfo: getinfo))
  }

  // MARK: - Typed calls

  /// Sets a `long` option; returns the CURLcode.
  @discardableResult
  func set(_ handle: Handle, _ option: Int, _ value: Int) -> Int32 {
    rates_curl_setopt_long(setopt, handle, Int32(option), value)
  }

  /// Sets a `curl_off_t` option.
  @discardableResult
  func set(_ handle: Handle, _ option: Int, offset value: Int64) -> Int32 {
    rates_curl_setopt_off(setopt, handle, Int32(option), value)
  }

  /// Sets a string option (libcurl copies strings).
  @discardableResult
  func set(_ handle: Handle, _ option: Int, string value: String) -> Int32 {
    value.withCString { rates_curl_setopt_pointer(setopt, handle, Int32(option), $0) }
  }

  /// Sets a pointer option (a list or callback data), which must outlive the transfer.
  @discardableResult
  func set(_ handle: Handle, _ option: Int, pointer value: UnsafeRawPointer?) -> Int32 {
    rates_curl_setopt_pointer(setopt, handle, Int32(option), value)
  }

  /// Sets a write or header callback.
  @discardableResult
  func set(_ handle: Handle, _ option: Int, callback: rates_curl_data_callback) -> Int32 {
    rates_curl_setopt_data_callback(setopt, handle, Int32(option), callback)
  }

  /// Sets the progress callback.
  @discardableResult
  func set(_ handle: Handle, _ option: Int, progress: rates_curl_xferinfo_callback) -> Int32 {
    rates_curl_setopt_xferinfo_callback(setopt, handle, Int32(option), progress)
  }

  /// The response code of the last transfer on `handle`, or 0.
  func responseCode(_ handle: Handle) -> Int {
    var code = 0
    let info = Int32(RATES_CURLINFO_RESPONSE_CODE)
    let result = rates_curl_getinfo_long(getinfo, handle, info, &code)
    return result == RATES_CURLE_OK ? code : 0
  }
}
