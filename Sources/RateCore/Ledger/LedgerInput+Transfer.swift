extension LedgerInput {
  /// Reads a deposit's cost: an amount and a currency code, `20000 USD` or `20000USD`.
  public static func cost(_ text: String) throws(Invalid) -> (amount: Double, currency: CurrencyCode) {
    let trimmed = text.trimming(.whitespaces)
    let code = String(trimmed.suffix(3))
    guard trimmed.count > 3, code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
      throw Invalid(
        message: "the cost \(quoted(text)) is not an amount and a currency: write it like "
          + "20000 USD")
    }
    let number = trimmed.dropLast(3).trimming(.whitespaces)
    return (try amount(number, what: "cost"), try costCurrency(code))
  }

  /// Reads a cost's currency: a currency code (any fiat currency: an ECB one is priced by the
  /// ECB, another by the ledger's street rate) or a well-known coin, so that `portfolio` can
  /// value it; anything else is refused here rather than failing every `portfolio` later.
  public static func costCurrency(_ text: String) throws(Invalid) -> CurrencyCode {
    let code = try currency(text)
    guard CurrencyCodes.fiat.contains(code.text) || CoinResolver.wellKnown[code.text] != nil else {
      throw Invalid(
        message: "the cost's currency \(quoted(code.text)) is neither a currency nor a well-known "
          + "coin, so nothing could value it: give the cost in USD, EUR or another currency")
    }
    return code
  }
}
