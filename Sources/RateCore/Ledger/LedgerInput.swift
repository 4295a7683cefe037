/// Validation of what the user types into the ledger, shared by `ledger add` and
/// `ledger import` so both accept and refuse exactly the same things.
///
/// Every check throws ``Invalid`` with a sentence that quotes the offending value (sanitized
/// and shortened) and says what is accepted.
public enum LedgerInput {
  /// A refused value; `message` completes `error: ` or `line N: `.
  public struct Invalid: Error, Equatable, Sendable {
    public var message: String
  }

  /// The largest amount accepted: anything above is surely a typo.
  /// The smallest amount accepted (a satoshi), so that no rate overflows.
  static let minimumAmount = 1e-8
  /// The most characters a counterparty name or a note may have.
  static let maximumTextLength = 200
  /// The earliest date accepted, 1990-01-01.
  static let earliestDay = Day(daysSinceEpoch: 7_305)

  // MARK: - Amounts

  /// Reads a positive amount: `1500`, `1,500.25`, `1e3`, `+12.5`.
  ///
  /// Commas may only separate groups of three digits in the whole part, so a decimal comma
  /// (`1,5`) is refused instead of being read as 15. Hexadecimal floats, `inf` and `nan` are
  /// not numbers here.
  /// - Parameters:
  ///   - text: What the user wrote.
  ///   - what: The name used in messages, such as `"amount"`.
  public static func amount(_ text: String, what: String = "amount") throws(Invalid) -> Double {
    switch AmountParser.parse(text) {
    case .failure(let problem):
      throw Invalid(message: problem.sentence(about: text, what: what))
    case .success(let value):
      guard value >= minimumAmount else {
        throw Invalid(
          message: "the \(what) \(quoted(text.trimming(.whitespaces))) is too small"
            + " (at least 0.00000001)")
      }
      return value
    }
  }

  // MARK: - Currencies, dates, sides and text

  /// Reads a currency code or coin symbol: three ASCII letters (any code: LBP, NGN, ARS), or a
  /// longer symbol of up to 10 letters and digits as exchanges' exports name coins (DOGE, USDC,
  /// 1INCH); upper-cased.
  public static func currency(_ text: String) throws(Invalid) -> CurrencyCode {
    guard let code = CurrencyCode(text, shape: .ledger) else {
      throw Invalid(
        message: "\(quoted(text.trimming(.whitespaces))) is not a currency code: use "
          + "three letters such as USD, LBP or NGN, or a coin's symbol such as BTC or DOGE")
    }
    return code
  }

  /// Reads two different currency codes.
  public static func pair(_ base: String, _ quote: String) throws(Invalid) -> (CurrencyCode, CurrencyCode) {
    let base = try currency(base)
    let quote = try currency(quote)
    guard base != quote else {
      throw Invalid(message: "both currencies are \(base): an exchange needs two different ones")
    }
    return (base, quote)
  }

  /// Reads `YYYY-MM-DD`, `today` or `yesterday` (UTC), refusing days more than one day after
  /// `today` (time zones east of UTC) or before 1990.
  public static func day(_ text: String, today: Day) throws(Invalid) -> Day {
    guard let day = Day(argument: text, today: today) else {
      throw Invalid(
        message: "the date \(quoted(text.trimming(.whitespaces))) is not a date: use "
          + "YYYY-MM-DD, such as \(today), 'today' or 'yesterday'")
    }
    return try checked(day, today: today)
  }

  /// Refuses a day more than one day after `today` (time zones east of UTC) or before 1990.
  public static func checked(_ day: Day, today: Day) throws(Invalid) -> Day {
    // Days are UTC; a user east of UTC is already on the next day for a few
    // hours, so one day ahead is allowed.
    guard day <= today.adding(days: 1) else {
      throw Invalid(message: "the date \(day) is in the future (today is \(today), UTC)")
    }
    guard day >= earliestDay else {
      throw Invalid(message: "the date \(day) is before 1990: check the year")
    }
    return day
  }

  /// Reads `sell` or `buy`, in any case.
  static func side(_ text: String) throws(Invalid) -> LedgerEntry.Side {
    guard
      let side = LedgerEntry.Side(
        rawValue: text.trimming(.whitespaces)
          .lowercased())
    else {
      throw Invalid(message: "the side \(quoted(text)) is neither 'sell' nor 'buy'")
    }
    return side
  }

  /// Cleans a counterparty name or note: sanitized for the terminal, trimmed, at most
  /// ``maximumTextLength`` characters; nil when nothing is left.
  /// - Parameter what: The name used in messages, such as `"note"`.
  public static func text(_ text: String, what: String) throws(Invalid) -> String? {
    let clean = UntrustedText.sanitize(text).trimming(.whitespaces)
    guard !clean.isEmpty else { return nil }
    guard clean.count <= maximumTextLength else {
      throw Invalid(
        message: "the \(what) is too long (\(clean.count) characters; at most "
          + "\(maximumTextLength))")
    }
    return clean
  }

  /// `'text'` for a message: sanitized, and shortened past 40 characters.
  public static func quoted(_ text: String) -> String {
    let clean = UntrustedText.sanitize(text)
    return "'" + (clean.count > 40 ? String(clean.prefix(39)) + "…" : clean) + "'"
  }
}
