/// Where `rates` keeps its files, following the XDG base directory rules.
///
/// - configuration: `$XDG_CONFIG_HOME/rates` (default `~/.config/rates`)
/// - user data: `$XDG_DATA_HOME/rates` (default `~/.local/share/rates`)
/// - cache: `$XDG_CACHE_HOME/rates` (default `~/.cache/rates`)
///
/// A relative `XDG_*` value is ignored, as the specification requires.
public struct RatesPaths: Equatable, Sendable {
  /// Preferences and the API key.
  public var config: URL
  /// Pairs, favorites and the ledger.
  public var data: URL
  /// Cached responses; safe to delete.
  public var cache: URL

  /// Creates paths from explicit directories.
  public init(config: URL, data: URL, cache: URL) {
    self.config = config
    self.data = data
    self.cache = cache
  }

  /// The names of the environment variables the paths come from.
  public enum Variable {
    /// The home directory, under which the defaults lie.
    public static let home = "HOME"
    /// The base of the configuration directory.
    public static let configHome = "XDG_CONFIG_HOME"
    /// The base of the user data directory.
    public static let dataHome = "XDG_DATA_HOME"
    /// The base of the cache directory.
    public static let cacheHome = "XDG_CACHE_HOME"
  }

  /// The paths for `environment`, joined as strings (``joined(_:_:)``) and made URLs once:
  /// `URL.appendingPathComponent` validates and percent-encodes through a `Set<UInt8>`, whose
  /// first use costs a run-time lookup of `UInt8: Hashable` (a scan of every conformance).
  public init(environment: [String: String]) {
    let home = environment[Variable.home].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
    func folder(_ variable: String, _ fallback: String) -> URL {
      if let value = environment[variable], value.hasPrefix("/") {
        return URL(fileURLWithPath: Self.joined(value, "rates"), isDirectory: true)
      }
      guard home.hasPrefix("/") else {
        // A relative or `~` home: a URL relative to the working directory, as it always was.
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(fallback)
          .appendingPathComponent("rates", isDirectory: true)
      }
      return URL(fileURLWithPath: Self.joined(Self.joined(home, fallback), "rates"), isDirectory: true)
    }
    config = folder(Variable.configHome, ".config")
    data = folder(Variable.dataHome, ".local/share")
    cache = folder(Variable.cacheHome, ".cache")
  }

  /// `name` inside the folder at `path`, as `URL.appendingPathComponent` joins them: one `/`
  /// between, none added when `path` already ends with one.
  public static func joined(_ path: String, _ name: String) -> String {
    path.utf8.last == UInt8(ascii: "/") ? path + name : path + "/" + name
  }

  /// The file `name` in `folder`: `folder.appendingPathComponent(name)`, joined as a string
  /// (``joined(_:_:)``) because `appendingPathComponent` validates and percent-encodes through
  /// a `Set<UInt8>`, whose first use costs a run-time lookup of `UInt8: Hashable`.
  public static func file(_ name: String, in folder: URL) -> URL {
    // A folder relative to the working directory (a relative `HOME`) stays so, as it was.
    guard folder.baseURL == nil else { return folder.appendingPathComponent(name) }
    return URL(fileURLWithPath: joined(path(of: folder), name))
  }

  /// The file-system path of `folder`, as `URL.path` gives it (up to a trailing `/`, which
  /// ``joined(_:_:)`` treats alike). `URL.path` builds a `Set<UInt8>`, a run-time lookup of
  /// `UInt8: Hashable` (a scan of every conformance in the binary) on a warm command;
  /// `path(percentEncoded: false)` does not, and gives the same path for an absolute URL.
  public static func path(of folder: URL) -> String {
    folder.baseURL == nil ? folder.path(percentEncoded: false) : folder.path
  }
}
