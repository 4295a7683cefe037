/// Why a user data file could not be read or updated. The file is always left untouched.
public enum DataFileError: Error, Equatable, Sendable, LocalizedError {
  /// The file is not JSON or not of the expected shape; `detail` says where.
  case corrupt(path: String, detail: String)
  /// One line of a line-based file (the ledger) is not a valid record; `line` counts from 1.
  case corruptLine(path: String, line: Int, detail: String)
  /// The file has a format version this program does not read (usually a newer `rates`).
  case unsupportedVersion(path: String, version: Int, supported: Int)
  /// The file exists but cannot be read (permissions, a directory in its place, …).
  case unreadable(path: String, reason: String)
  /// Another `rates` held the file's lock for too long.
  case lockTimeout(path: String)

  /// A message naming the file, saying it was left untouched and how to recover.
  public var errorDescription: String? {
    switch self {
    case .corrupt(let path, let detail):
      let quoted = Self.shellQuoted(path)
      return "\(path) is corrupt (\(detail)); it was left untouched. Fix it by hand, "
        + "or move it aside to start empty: mv \(quoted) \(Self.shellQuoted(path + ".bak"))"
    case .corruptLine(let path, let line, let detail):
      return "\(path) line \(line) is not a valid record (\(detail)); nothing was changed, and "
        + "rates will not change this file until the line is repaired. Fix or delete line "
        + "\(line) in a text editor (one JSON object per line), e.g. sed -n '\(line)p' "
        + "\(Self.shellQuoted(path)) to see it"
    case .unsupportedVersion(let path, let version, let supported) where version > supported:
      return "\(path) was written by a newer rates (format version \(version); this rates "
        + "reads version \(supported)); it was left untouched. Upgrade rates to use it."
    case .unsupportedVersion(let path, let version, let supported):
      return "\(path) has format version \(version), which this rates (format version "
        + "\(supported)) cannot read; it was left untouched."
    case .unreadable(let path, let reason):
      return "cannot read \(path): \(reason); nothing was changed."
    case .lockTimeout(let path):
      let url = URL(fileURLWithPath: path)
      let lock = url.deletingLastPathComponent()
        .appendingPathComponent(".\(url.lastPathComponent).lock").path
      return "\(path) is locked by another rates command (lock file \(lock)); "
        + "nothing was changed. Try again when it has finished."
    }
  }

  /// `path` quoted for a POSIX shell when it needs quoting.
  public static func shellQuoted(_ path: String) -> String {
    let plain = path.allSatisfy { character in
      character.isASCII
        && (character.isLetter || character.isNumber || "/._-+,:@%".contains(character))
    }
    if plain && !path.isEmpty { return path }
    return "'" + path.replacing("'", with: "'\\''") + "'"
  }
}
