import RateCore

/// The one JSON vocabulary of every `--json` document, NDJSON line and error
/// document (docs/json.md describes each shape).
enum JSONVocabulary {
  /// The `version` of every document the CLI prints.
  static let version = 2
}

/// A document with the vocabulary's `version` added beside its own keys: the
/// one place that stamps `version` on what the CLI prints.
struct Versioned<Document: Encodable>: Encodable {
  var document: Document

  init(_ document: Document) { self.document = document }

  private enum CodingKeys: String, CodingKey { case version }

  func encode(to encoder: any Encoder) throws {
    try document.encode(to: encoder)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(JSONVocabulary.version, forKey: .version)
  }
}

/// One quote in every document that has quotes (`current`, `top`,
/// `favorites`, `info`, `watch` lines): a rate with its labelled change and
/// its provenance.
struct QuoteDocument: Encodable, Equatable, Sendable {
  var base: String
  var quote: String
  /// `null` when the provider had no price for the pair.
  @NullEncoded var rate: Double?
  /// The change over ``changePeriod``, in percent; `null` when unknown.
  @NullEncoded var changePercent: Double?
  /// The true span of ``changePercent``: `24h` (CoinGecko) or `1d` (since the
  /// previous working day's rate: ECB, CoinDesk closes).
  var changePeriod: String
  var source: RateSource
  var fetchedAt: Date
  /// When the provider last updated the price.
  @NullEncoded var updatedAt: Date?
  var stale: Bool
  /// True when the provider last updated the price much longer ago than it
  /// normally does (``UpdateRhythm``).
  var old: Bool
}

extension QuoteDocument {
  /// The document of `quote`, `stale` as the answer says, `old` as of `now`.
  init(_ quote: Quote, stale: Bool, now: Date) {
    base = quote.base
    self.quote = quote.quote.text
    rate = quote.rate
    changePercent = quote.change24hPercent
    changePeriod = quote.changePeriod.rawValue
    source = quote.source
    fetchedAt = quote.fetchedAt
    updatedAt = quote.updatedAt
    self.stale = stale
    old = UpdateRhythm.isOld(quote, at: now)
  }

  /// The document of a CoinGecko market row priced in `currency`, `old` as
  /// of `now` by the rule of every quote (``UpdateRhythm``).
  init(_ market: CoinMarket, in currency: String, fetchedAt: Date, stale: Bool, now: Date) {
    base = CurrencyCode(market.symbol).text
    quote = currency
    rate = market.currentPrice
    changePercent = market.priceChangePercentage24h
    changePeriod = ChangePeriod.hours24.rawValue
    source = .provider(.coinGecko)
    self.fetchedAt = fetchedAt
    updatedAt = market.lastUpdated
    self.stale = stale
    old = UpdateRhythm.isOld(updatedAt: market.lastUpdated, source: source, at: now)
  }
}
