/// Where a rate came from: one of the ``Provider``s `rates` asks, or a source that is not a
/// provider (the user's ledger, the portfolio, the ECB snapshot built into `rates`). A closed
/// set, so every comparison and switch over sources is checked by the compiler. Files and
/// JSON keep it as its ``name`` (`coingecko`, `ledger`, `ECB snapshot to 2026-10-30`).
public enum RateSource: Hashable, Sendable {
  /// A provider asked over HTTP; named by its raw value (`coingecko`).
  case provider(Provider)
  /// The user's own exchanges (`rates ledger`): street rates; named `ledger`.
  case ledger
  /// The user's holdings valued day by day (`rates portfolio history`); named `portfolio`.
  case portfolio
  /// The ECB snapshot built into `rates` (``ECBSnapshot``): `through` its last day when it
  /// labels a rate or a series (`ECB snapshot to 2026-10-30`), nil when a notice or an
  /// error names the snapshot itself (`ecb-snapshot`).
  case ecbSnapshot(through: Day?)

  /// The name files and JSON documents hold.
  public var name: String {
    switch self {
    case .provider(let provider): return provider.rawValue
    case .ledger: return "ledger"
    case .portfolio: return "portfolio"
    case .ecbSnapshot(let day?): return "\(ECBSnapshot.sourcePrefix)\(day)"
    case .ecbSnapshot(nil): return "ecb-snapshot"
    }
  }

  /// The source named `name` (``name``'s inverse); nil for a name `rates` never writes.
  public init?(name: String) {
    if let provider = Provider(rawValue: name) {
      self = .provider(provider)
    } else if name.hasPrefix(ECBSnapshot.sourcePrefix) {
      guard let day = Day(name.dropFirst(ECBSnapshot.sourcePrefix.count)) else { return nil }
      self = .ecbSnapshot(through: day)
    } else {
      switch name {
      case "ledger": self = .ledger
      case "portfolio": self = .portfolio
      case "ecb-snapshot": self = .ecbSnapshot(through: nil)
      default: return nil
      }
    }
  }

  /// The name written in messages and tables (`CoinGecko`, `your ledger`).
  public var displayName: String {
    switch self {
    case .provider(let provider): return provider.displayName
    case .ledger: return "your ledger"
    case .portfolio: return name
    case .ecbSnapshot(let day?): return "\(ECBSnapshot.sourcePrefix)\(day)"
    case .ecbSnapshot(nil): return "the ECB snapshot built into rates"
    }
  }

  /// The provider, when this source is one.
  public var provider: Provider? {
    if case .provider(let provider) = self { return provider }
    return nil
  }

  /// Whether this source gives ECB reference rates: Frankfurter, the ECB itself, or the ECB
  /// snapshot built into `rates`.
  public var isECB: Bool {
    switch self {
    case .provider(let provider): return provider == .frankfurter || provider == .ecb
    case .ecbSnapshot: return true
    case .ledger, .portfolio: return false
    }
  }

  /// The provider this source stands in for when it answers as a fallback
  /// (``Provider/standsIn``); nil for the others.
  public var standsIn: Provider? { provider?.standsIn }

  /// Whether this is the ECB snapshot built into `rates`.
  public var isECBSnapshot: Bool {
    if case .ecbSnapshot = self { return true }
    return false
  }
}

extension RateSource: Codable {
  /// Reads a ``name``; a name `rates` never writes is refused.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let name = try container.decode(String.self)
    guard let source = RateSource(name: name) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "'\(name)' is not a source rates knows")
    }
    self = source
  }

  /// Writes the ``name``.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(name)
  }
}

extension RateSource: CustomStringConvertible {
  /// The ``name``, so that text built from a source spells it as files and JSON do.
  public var description: String { name }
}
