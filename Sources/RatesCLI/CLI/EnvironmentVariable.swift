import RateCore

/// An environment variable `rates` reads, declared once: its name and its line in
/// `rates help` (the `Environment:` section is generated from ``documented``). Code reads a
/// variable through its declaration, never through a name written again.
struct EnvironmentVariable: Sendable, Hashable {
  /// The variable's name.
  let name: String
  /// Its line in `rates help`; empty for a switch kept out of the help.
  let help: String

  init(_ name: String, _ help: String = "") {
    self.name = name
    self.help = help
  }

  /// The value in `environment`, without surrounding spaces; nil when unset or blank.
  func value(in environment: [String: String]) -> String? {
    guard let text = environment[name]?.trimming(.whitespaces), !text.isEmpty
    else { return nil }
    return text
  }

  /// The value in `environment` exactly as set, blank included.
  func raw(in environment: [String: String]) -> String? { environment[name] }

  static let currency = Self("RATES_CURRENCY", "default quote currency (USD)")
  static let provider = Self("RATES_PROVIDER", "force a provider (default: by pair)")
  static let coinGeckoKey = Self(
    "COINGECKO_API_KEY", "CoinGecko demo key (header x-cg-demo-api-key)")
  static let coinGeckoProKey = Self(
    "COINGECKO_PRO_API_KEY", "CoinGecko pro key: uses pro-api.coingecko.com")
  static let coinGeckoURL = Self("RATES_COINGECKO_URL", "CoinGecko base URL (mirrors, tests)")
  static let coinDeskURL = Self("RATES_COINDESK_URL", "CoinDesk BPI v1 base URL")
  static let frankfurterURL = Self("RATES_FRANKFURTER_URL", "Frankfurter (ECB rates) base URL")
  static let coinbaseURL = Self("RATES_COINBASE_URL", "Coinbase Exchange base URL (coin fallback)")
  static let krakenURL = Self("RATES_KRAKEN_URL", "Kraken base URL (coin fallback)")
  static let ecbURL = Self(
    "RATES_ECB_URL", "one base URL for both ECB paths (default: the ECB's own hosts)")
  static let timeout = Self("RATES_TIMEOUT", "per-request timeout in seconds (10)")
  static let watchFloor = Self(
    "RATES_WATCH_FLOOR", "shortest 'watch' interval in seconds (tests, mirrors)")
  static let ratesPager = Self("RATES_PAGER", "pager for long output on a terminal ('cat': none)")
  static let pager = Self("PAGER", "pager when RATES_PAGER is unset (default: less -FRX)")
  static let noColor = Self("NO_COLOR", "disable colour")
  static let term = Self("TERM", "'dumb' disables colour")
  static let columns = Self("COLUMNS", "width when the terminal cannot tell (piped: 80)")
  static let cacheHome = Self(RatesPaths.Variable.cacheHome, "where the cache lives (~/.cache)")
  static let configHome = Self(
    RatesPaths.Variable.configHome, "where config.json lives (~/.config)")
  static let dataHome = Self(
    RatesPaths.Variable.dataHome,
    "where your coins, favorites, pairs and the ledger live (~/.local/share)")
  static let home = Self(RatesPaths.Variable.home)
  static let path = Self("PATH")
  /// The locale, in the order it decides Unicode output.
  static let locale = [Self("LC_ALL"), Self("LC_CTYPE"), Self("LANG")]
  /// For `scripts/home-bench.sh`: a file to append key-to-frame latencies to.
  static let homeTrace = Self("RATES_HOME_TRACE")
  /// The CoinGecko keys, in the order they are read.
  static let coinGeckoKeys = [coinGeckoProKey, coinGeckoKey]

  /// The variables `rates help` lists, in its order.
  static let documented: [Self] = [
    currency, provider, coinGeckoKey, coinGeckoProKey, coinGeckoURL, coinDeskURL,
    frankfurterURL, ecbURL, coinbaseURL, krakenURL, timeout, watchFloor, ratesPager, pager,
    noColor, term, columns, cacheHome,
    configHome, dataHome,
  ]
}
