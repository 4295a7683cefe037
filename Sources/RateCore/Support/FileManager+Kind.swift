extension FileManager {
  /// Whether `path` names a directory (following symbolic links); nil when
  /// nothing is there. One spelling for Linux's `Bool` and macOS's `ObjCBool`.
  package func isDirectory(atPath path: String) -> Bool? {
    #if canImport(FoundationEssentials)
      var isDirectory = false
    #else
      var isDirectory: ObjCBool = false
    #endif
    guard fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
    #if canImport(FoundationEssentials)
      return isDirectory
    #else
      return isDirectory.boolValue
    #endif
  }
}
