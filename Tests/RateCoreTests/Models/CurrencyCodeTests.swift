import RatesExpectations
import Testing

@testable import RateCore

/// One home for a currency code: upper-cased once, compared by that spelling, stored as a
/// plain string, and each reader's shape named on the type.
@Suite struct CurrencyCodeTests {
  @Test(arguments: [("eur", "EUR"), ("Usd", "USD"), ("sats", "SATS"), ("1inch", "1INCH"), ("BTC", "BTC")])
  func aCodeIsUpperCasedOnce(typed: String, code: String) {
    expectEqual(CurrencyCode(typed).text, code)
    expectEqual(CurrencyCode(typed).description, code)
    expectEqual(CurrencyCode(typed), CurrencyCode(stringLiteral: code))
  }

  @Test func codesCompareHashAndSortByTheirOneSpelling() {
    expectEqual(Set([CurrencyCode("eur"), "EUR", CurrencyCode("Eur")]).count, 1)
    expectEqual([CurrencyCode("usd"), "EUR", "chf"].sorted().map(\.text), ["CHF", "EUR", "USD"])
    expectEqual("\(CurrencyCode("gbp"))/\(CurrencyCode("usd"))", "GBP/USD")
  }

  @Test func aCodeIsStoredAsASingleStringAndReadBackNormalised() throws {
    struct Stored: Codable, Equatable { var quote: CurrencyCode }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(Stored(quote: "EUR"))
    expectEqual(String(decoding: data, as: UTF8.self), #"{"quote":"EUR"}"#)
    let read = try JSONDecoder().decode(Stored.self, from: Data(#"{"quote":"eur"}"#.utf8))
    expectEqual(read, Stored(quote: "EUR"))
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(Stored.self, from: Data(#"{"quote":7}"#.utf8))
    }
  }

  @Test(arguments: [
    ("EUR", true), ("eur", true), ("BITS", true), ("SATS", true), ("XAUAG", true),
    ("E", false), ("EUROPE", false), ("EU1", false), ("€", false), ("", false), ("ÉUR", false),
    (" EUR", false), ("eur ", false), ("EUR\n", false),
  ])
  /// Taken as typed: a quote with spaces around it is refused, as before the type existed.
  func aCommandQuoteIsTwoToFiveLetters(text: String, valid: Bool) {
    expectEqual(CurrencyCode.isValid(text, shape: .quote), valid)
    expectEqual((CurrencyCode(text, shape: .quote) != nil), valid)
  }

  @Test(arguments: [
    ("LBP", true), (" ngn ", true), ("DOGE", true), ("1INCH", true), ("USDC", true),
    ("ABCDEFGHIJ", true), ("AB", false), ("U5D", false), ("ABCDEFGHIJK", false), ("US-D", false),
  ])
  func aLedgerCodeIsThreeLettersOrAFourToTenCharacterSymbol(text: String, valid: Bool) {
    expectEqual(CurrencyCode.isValid(text, shape: .ledger), valid)
    expectEqual(CurrencyCode(text, shape: .ledger)?.text, (valid ? text.trimming(.whitespaces).uppercased() : nil))
  }

  @Test(arguments: [
    ("BTC", true), ("ETH2", true), ("xtz", true), ("AB", true), ("ABCDEFGHIJKL", true),
    ("A", false), ("ABCDEFGHIJKLM", false), ("ATOM.S", false), ("", false),
  ])
  func anImportedSymbolIsTwoToTwelveLettersAndDigits(text: String, valid: Bool) {
    expectEqual(CurrencyCode.isValid(text, shape: .imported), valid)
  }

  @Test func whatACodeNamesIsAskedOfTheCode() {
    expect(CurrencyCode("gbp").isFiat && CurrencyCode("gbp").isCurrency)
    expect(!CurrencyCode("sats").isFiat && CurrencyCode("sats").isCurrency)
    expect(!CurrencyCode("btc").isCurrency && CurrencyCode("btc").isQuotable)
    expect(CurrencyCode("lbp").isFiat && !CurrencyCode("lbp").isQuotable)
    expect(!CurrencyCode("doge").isQuotable)
  }

  @Test func everyReaderSharesTheShapes() throws {
    expectEqual(try LedgerInput.currency(" doge "), "DOGE")
    #expect(throws: LedgerInput.Invalid.self) { try LedgerInput.currency("U5D") }
    expectEqual(AssetSymbols.symbol(" eth2 "), "ETH")
    expectEqual(AssetSymbols.symbol("ATOM.S"), nil)
    expect(CurrencyCode("eur").isECB && !CurrencyCode("lbp").isECB && CurrencyCode("xdr").isCurrency)
  }

  @Test func anInvertedSeriesKeepsItsCodesInTheirOneSpelling() {
    let series = RateSeries(
      base: "BTC", quote: "EUR", source: .provider(.coinGecko), fetchedAt: Date(timeIntervalSince1970: 0),
      points: [RatePoint(date: Day(year: 2024, month: 1, day: 2)!, rate: 2)])
    let inverted = series.inverted()
    expect(inverted.base == "EUR" && inverted.quote == CurrencyCode("btc"))
  }
}
