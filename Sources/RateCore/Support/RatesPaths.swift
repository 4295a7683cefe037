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

  /// The paths for `environment`.
  public init(environment: [String: String]) {
    let home =
      environment[Variable.home].flatMap { $0.isEmpty ? nil : $0 }
      ?? FileManager.default.homeDirectoryForCurrentUser.path
    func base(_ variable: String, _ fallback: String) -> URL {
      if let value = environment[variable], value.hasPrefix("/") {
        return URL(fileURLWithPath: value, isDirectory: true)
      }
      // A relative or `~` home: a URL relative to the working directory.
      return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(fallback)
    }
    config = base(Variable.configHome, ".config").appendingPathComponent("rates", isDirectory: true)
    data = base(Variable.dataHome, ".local/share").appendingPathComponent("rates", isDirectory: true)
    cache = base(Variable.cacheHome, ".cache").appendingPathComponent("rates", isDirectory: true)
  }
}
