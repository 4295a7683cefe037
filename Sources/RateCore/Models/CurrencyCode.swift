/// A currency code or coin symbol (`EUR`, `BTC`, `SATS`, `1INCH`): the one place a code is
/// upper-cased.
///
/// Whatever spelled it (the user, a provider, a config file, the ledger, an import), a code
/// is upper-cased once, when the value is made; from then on two codes compare, hash and sort
/// by that one spelling. It encodes as a single string, so every file and JSON
/// document that held a code as a string holds the same bytes.
///
/// A coin id (`poundtoken`, `ethereum-wormhole`) is not a code: it keeps its case and is never
/// made one. Where a code is read, the reader accepts one ``Shape``: each rule that differs
/// for a reason has its name here.
public struct CurrencyCode: Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  /// The code, upper case.
  public let text: String

  /// `text` upper-cased, as it is otherwise: a code typed with spaces around it is refused
  /// where it is read (``Shape/quote``), not silently mended.
  public init(_ text: some StringProtocol) {
    self.text = text.uppercased()
  }

  /// `text` as a code of `shape`, upper-cased (and trimmed first for a shape read from a
  /// file: ``Shape/trims``); nil when it does not have that shape.
  public init?(_ text: some StringProtocol, shape: Shape) {
    let candidate = shape.trims ? Self.trimmed(text) : Substring(text)
    guard shape.admits(candidate) else { return nil }
    self.text = candidate.uppercased()
  }

  /// A code written in the source (constants, tests).
  public init(stringLiteral value: String) {
    self.init(value)
  }

  /// Decodes a code from a single string, upper-cased.
  public init(from decoder: any Decoder) throws {
    self.init(try decoder.singleValueContainer().decode(String.self))
  }

  /// Encodes the code as a single string.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(text)
  }

  /// The code.
  public var description: String { text }

  /// Orders codes alphabetically.
  public static func < (lhs: CurrencyCode, rhs: CurrencyCode) -> Bool { lhs.text < rhs.text }

  private static func trimmed(_ text: some StringProtocol) -> Substring {
    let characters = Substring(text)
    guard let first = characters.firstIndex(where: { !$0.isWhitespace }),
      let last = characters.lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return characters[first...last]
  }
}

extension CurrencyCode {
  /// The shapes a code may take, by where it is read.
  public enum Shape: Sendable {
    /// A quote currency on the command line, in the config file and the stored pairs:
    /// 2 to 5 ASCII letters (`EUR`, `BITS`, `SATS`).
    case quote
    /// A ledger currency: three ASCII letters (any ISO code: LBP, NGN, ARS), or a coin's
    /// symbol of 4 to 10 ASCII letters and digits as exchanges name them (DOGE, USDC, 1INCH).
    case ledger
    /// An asset in an exchange's export: 2 to 12 ASCII letters and digits.
    case imported

    /// Whether the text of a ledger or an export is trimmed of surrounding whitespace before
    /// it is judged (a field of a file); a quote typed on the command line is taken as typed.
    var trims: Bool { self != .quote }

    /// Whether `text` (trimmed as ``trims`` says, any case) has this shape.
    func admits(_ text: Substring) -> Bool {
      let letters = text.allSatisfy { $0.isASCII && $0.isLetter }
      let symbol = text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
      switch self {
      case .quote: return (2...5).contains(text.count) && letters
      case .ledger: return (text.count == 3 && letters) || ((4...10).contains(text.count) && symbol)
      case .imported: return (2...12).contains(text.count) && symbol
      }
    }
  }

  /// Whether `text` (any case) has `shape` (trimmed first where the shape ``Shape/trims``).
  public static func isValid(_ text: some StringProtocol, shape: Shape) -> Bool {
    CurrencyCode(text, shape: shape) != nil
  }
}

extension CurrencyCode {
  /// Whether the ECB publishes the code (one of ``FiatCurrencies/ecb``).
  public var isECB: Bool { FiatCurrencies.ecb[text] != nil }

  /// Whether the code names a fiat currency, rather than a coin: an ECB currency or one of
  /// ``CurrencyCodes/fiat``.
  public var isFiat: Bool { isECB || CurrencyCodes.fiat.contains(text) }

  /// Whether the code is a currency, never a coin's symbol: a fiat code or a quote-only
  /// code (XDR, SATS…). A coin whose symbol collides with one is named by its id.
  public var isCurrency: Bool {
    isFiat || CurrencyCodes.quoteOnly.contains(text)
  }

  /// Whether some provider quotes prices in the code (``CurrencyCodes/quotable``).
  public var isQuotable: Bool {
    CurrencyCodes.coinGeckoQuotes.contains(text) || isECB
  }
}
