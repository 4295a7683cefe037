extension LedgerInput {
  /// Reads a deposit's cost: an amount and a currency code, `20000 USD` or `20000USD`.
  public static func cost(_ text: String) throws(Invalid) -> (amount: Double, currency: String) {
    let trimmed = AmountParser.trimmingWhitespace(text)
    let code = String(trimmed.suffix(3))
    guard trimmed.count > 3, code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
      throw Invalid(
        message: "the cost \(quoted(text)) is not an amount and a currency: write it like "
          + "20000 USD")
    }
    let number = AmountParser.trimmingWhitespace(String(trimmed.dropLast(3)))
    return (try amount(number, what: "cost"), try currency(code))
  }
}
