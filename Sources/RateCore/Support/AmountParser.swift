import Foundation

/// Reads amounts the way people type them: `1500`, `1,500.25`, `1e3`.
///
/// `,` is accepted only as a thousands separator in groups of three, so the
/// European `1,5` is refused rather than read as fifteen. Amounts must be
/// positive, finite and at most 10^15.
public enum AmountParser {
  /// The largest amount accepted.
  public static let maximum = 1e15

  /// Why an amount was refused, as a sentence fragment after the amount.
  public enum Problem: Error, Equatable, Sendable {
    case notANumber
    case ambiguousComma
    case notPositive
    case tooLarge

    /// What to tell the user.
    public var message: String {
      switch self {
      case .notANumber: return "expected a number such as 1500, 1,500.25 or 1e3"
      case .ambiguousComma:
        return "use ',' only between groups of three digits and '.' for decimals (1,500.25)"
      case .notPositive: return "the amount must be more than zero"
      case .tooLarge: return "the amount is too large (at most 1e15)"
      }
    }
  }

  /// The amount `text` stands for.
  public static func parse(_ text: String) -> Result<Double, Problem> {
    var candidate = text.trimmingCharacters(in: .whitespaces)
    if candidate.contains(",") {
      var body = Substring(candidate)
      if body.first == "+" || body.first == "-" { body = body.dropFirst() }
      let integer = body.prefix { $0 != "." && $0 != "e" && $0 != "E" }
      let groups = integer.split(separator: ",", omittingEmptySubsequences: false)
      let digitsOnly = groups.allSatisfy { group in group.allSatisfy { $0.isASCII && $0.isNumber } }
      guard !body.dropFirst(integer.count).contains(","), let head = groups.first,
        (1...3).contains(head.count), groups.dropFirst().allSatisfy({ $0.count == 3 }), digitsOnly
      else { return .failure(.ambiguousComma) }
      candidate = candidate.replacingOccurrences(of: ",", with: "")
    }
    guard !candidate.isEmpty, candidate.allSatisfy({ $0.isASCII }), let value = Double(candidate),
      !value.isNaN
    else { return .failure(.notANumber) }
    guard value > 0 else { return .failure(.notPositive) }
    guard value <= maximum else { return .failure(.tooLarge) }
    return .success(value)
  }
}
