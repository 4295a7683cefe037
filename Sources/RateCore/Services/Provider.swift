/// The providers `rates` can ask: a closed set, so every switch over them is
/// checked by the compiler and nothing falls through to a silent default.
public enum Provider: String, CaseIterable, Sendable, Codable {
  /// CoinGecko v3: coins priced in fiat and other coins.
  case coinGecko = "coingecko"
  /// The CoinDesk Bitcoin Price Index v1 format: Bitcoin only.
  case coinDesk = "coindesk"
  /// Frankfurter v1: the ECB's euro reference rates, fiat only.
  case frankfurter = "frankfurter"
  /// Coinbase Exchange public market data: listed coins, keyless.
  case coinbase
  /// Kraken public market data: listed coins, keyless.
  case kraken
  /// The ECB's own reference rates (daily file and data API), fiat only.
  case ecb = "ecb"

  /// The name written in messages and tables (`CoinGecko`, `Frankfurter (ECB)`).
  public var displayName: String {
    switch self {
    case .coinGecko: return "CoinGecko"
    case .coinDesk: return "CoinDesk"
    case .frankfurter: return "Frankfurter (ECB)"
    case .coinbase: return "Coinbase Exchange"
    case .kraken: return "Kraken"
    case .ecb: return "ECB"
    }
  }

  /// The provider this one stands in for when it answers as a fallback: CoinGecko for the
  /// exchanges (Coinbase, Kraken), Frankfurter for the ECB's own files; nil for the others.
  public var standsIn: Provider? {
    switch self {
    case .coinbase, .kraken: return .coinGecko
    case .ecb: return .frankfurter
    case .coinGecko, .coinDesk, .frankfurter: return nil
    }
  }

  /// The period a provider's own change figure covers: CoinGecko's is a
  /// rolling 24 hours, the ECB's (and CoinDesk's daily closes) one working
  /// day.
  public var changePeriod: ChangePeriod {
    switch self {
    case .coinGecko: return .hours24
    case .coinDesk, .frankfurter, .coinbase, .kraken, .ecb: return .workingDay
    }
  }
}

extension Provider: CustomStringConvertible {
  /// The raw value (`coingecko`), so that a key or path built from a provider spells it as
  /// files and JSON do.
  public var description: String { rawValue }
}

/// The span a change figure covers.
public enum ChangePeriod: String, Sendable, Codable {
  /// A rolling 24 hours (CoinGecko).
  case hours24 = "24h"
  /// Since the previous working day's rate (ECB reference rates, daily closes).
  case workingDay = "1d"
}

extension ChangePeriod {
  /// The period of the change figure a quote from `source` carries: a
  /// provider's own, and one working day for the built-in ECB rates and
  /// anything else dated by day.
  public static func of(source: RateSource) -> ChangePeriod {
    source.provider?.changePeriod ?? .workingDay
  }
}

extension Quote {
  /// The period of this quote's change figure: its source's (``ChangePeriod/of(source:)``),
  /// the one rule every output uses (`current`, `watch`, exports).
  public var changePeriod: ChangePeriod { .of(source: source) }
}
