/// The currencies the ECB published and no longer does (CYP, HRK, RUB, BGN…):
/// their rates are final, so they are served from the snapshot built into
/// `rates` for the days the ECB published them, and refused after.
///
/// Which codes ended, and when, is read from the snapshot: a code of
/// ``endings`` whose last rate is older than the snapshot's last day.
public enum RetiredCurrencies {
  /// Why the ECB stopped publishing a currency.
  public enum Ending: Equatable, Sendable {
    /// The country adopted the euro.
    case euroAdopted(country: String)
    /// The ECB suspended it.
    case suspended
    /// It was redenominated: `factor` old units make one `code`.
    case replaced(by: String, factor: Int)
  }

  /// The one table of why each code ended (only codes the ECB published).
  public static let endings: [String: Ending] = [
    "BGN": .euroAdopted(country: "Bulgaria"), "CYP": .euroAdopted(country: "Cyprus"),
    "EEK": .euroAdopted(country: "Estonia"), "HRK": .euroAdopted(country: "Croatia"),
    "LTL": .euroAdopted(country: "Lithuania"), "LVL": .euroAdopted(country: "Latvia"),
    "MTL": .euroAdopted(country: "Malta"), "SIT": .euroAdopted(country: "Slovenia"),
    "SKK": .euroAdopted(country: "Slovakia"), "RUB": .suspended,
    "ROL": .replaced(by: "RON", factor: 10_000), "TRL": .replaced(by: "TRY", factor: 1_000_000),
  ]

  /// A request for a currency after the ECB's last rate of it.
  public struct Ended: Error, Equatable, Sendable {
    /// The currency, upper case.
    public var code: String
    /// The last day the ECB published it.
    public var lastDay: Day
    /// Why it ended.
    public var ending: Ending
  }

  /// The last day of each code that ended, from the embedded snapshot.
  public static let lastDays: [String: Day] = lastDays(in: ECBSnapshot.embedded)

  /// The codes of ``endings`` whose last rate in `snapshot` is older than its last day.
  static func lastDays(in snapshot: ECBSnapshot?) -> [String: Day] {
    guard let snapshot else { return [:] }
    var result: [String: Day] = [:]
    for code in endings.keys {
      guard let column = snapshot.column(code), let index = column.lastIndex(where: { $0 != nil }),
        snapshot.days[index] < snapshot.lastDay
      else { continue }
      result[code] = snapshot.days[index]
    }
    return result
  }

  /// Whether `code` (any case) is a currency the ECB no longer publishes.
  /// A code without an ``endings`` entry is answered without decoding the snapshot.
  public static func isRetired(_ code: String) -> Bool {
    let code = CurrencyCode(code).text
    return endings[code] != nil && lastDays[code] != nil
  }

  /// Why `code` cannot be asked for after its last day; `nil` when it is current.
  public static func ended(_ code: String) -> Ended? {
    let code = CurrencyCode(code).text
    guard let ending = endings[code], let lastDay = lastDays[code] else { return nil }
    return Ended(code: code, lastDay: lastDay, ending: ending)
  }

  /// Whether `base`/`quote` is an ECB pair with a currency that ended: both
  /// codes in the snapshot (EUR included), one of them retired. Such a pair
  /// is answered from the snapshot, never asked of a provider.
  /// A pair of current codes (every command's usual case) never decodes the snapshot.
  public static func isRetiredPair(_ base: String, _ quote: String) -> Bool {
    let codes = [CurrencyCode(base).text, CurrencyCode(quote).text]
    guard codes.contains(where: { endings[$0] != nil }), let snapshot = ECBSnapshot.embedded
    else { return false }
    return codes.allSatisfy(snapshot.currencies.contains) && codes.contains(where: isRetired)
  }

  /// The pair's retired currency that ended first, if any.
  public static func firstEnded(_ base: String, _ quote: String) -> Ended? {
    [ended(base), ended(quote)].compactMap { $0 }.min { $0.lastDay < $1.lastDay }
  }
}
