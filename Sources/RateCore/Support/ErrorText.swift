#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Error {
  /// The error as a sentence's end for people, the same on every platform: a
  /// `LocalizedError`'s description, or for a file-system error the system's
  /// reason with the path (`/a/b: Permission denied`), else the error as
  /// Swift describes it (not `localizedDescription`, which FoundationEssentials
  /// lacks and which macOS's Foundation words as "The operation couldn't be
  /// completed").
  public var readableDescription: String {
    if let described = (self as? any LocalizedError)?.errorDescription { return described }
    if let cocoa = self as? CocoaError {
      let reason = (cocoa.underlying as? POSIXError).map {
        String(cString: strerror($0.code.rawValue))
      }
      let path = cocoa.userInfo["NSFilePath"] as? String
      switch (path, reason) {
      case (let path?, let reason?): return path + ": " + reason
      case (nil, let reason?): return reason
      default: break
      }
    }
    return String(describing: self)
  }
}
