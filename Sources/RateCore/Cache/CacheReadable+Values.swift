// The cached values a warm `history`, `convert`, `current` or `pairs` reads, read by hand: through
// JSONDecoder each would cost a run-time lookup of its CodingKeys conformance (a scan of
// every conformance in the binary, ~210 k instructions) and the decoder's own work. Their
// Codable conformances remain for writing the cache and for `--json` documents; the cache
// reads them only here. Member names are those their synthesized CodingKeys write.

extension Quote: CacheReadable {
  private static let cacheMembers = [
    "base", "quote", "rate", "change24hPercent", "source", "fetchedAt", "updatedAt",
  ]

  /// Reads a quote as `JSONEncoder` wrote it.
  public init(cacheJSON reader: inout JSONReader) throws(JSONReader.Failure) {
    var (base, quote, source): (String?, String?, String?)
    var (rate, change): (Double?, Double?)
    var (fetchedAt, updatedAt): (Date?, Date?)
    try reader.object(Self.cacheMembers) { index, reader throws(JSONReader.Failure) in
      switch index {
      case 0: base = try reader.string()
      case 1: quote = try reader.string()
      case 2: rate = try reader.price()
      case 3: change = try reader.null() ? nil : try reader.changePercent()
      case 4: source = try reader.string()
      case 5: fetchedAt = try reader.date()
      default: updatedAt = try reader.null() ? nil : try reader.date()
      }
    }
    guard let base, let quote, let rate, let source, let fetchedAt else {
      throw .shape("a quote")
    }
    self.init(
      base: base, quote: quote, rate: rate, change24hPercent: change, source: source,
      fetchedAt: fetchedAt, updatedAt: updatedAt)
  }
}

extension RatePoint: CacheReadable {
  private static let cacheMembers = ["date", "rate", "carried"]

  /// Reads a point as `JSONEncoder` wrote it.
  public init(cacheJSON reader: inout JSONReader) throws(JSONReader.Failure) {
    var (date, rate, carried): (Day?, Double?, Bool?)
    try reader.object(Self.cacheMembers) { index, reader throws(JSONReader.Failure) in
      switch index {
      case 0: date = try reader.day()
      case 1: rate = try reader.price()
      default: carried = try reader.bool()
      }
    }
    guard let date, let rate, let carried else { throw .shape("a rate point") }
    self.init(date: date, rate: rate, carried: carried)
  }

  /// Reads an array of points.
  static func array(cacheJSON reader: inout JSONReader) throws(JSONReader.Failure) -> [RatePoint] {
    var points: [RatePoint] = []
    try reader.array { reader throws(JSONReader.Failure) in
      points.append(try RatePoint(cacheJSON: &reader))
    }
    return points
  }
}

extension Dictionary: CacheReadable where Key == CurrencyPairKey, Value == [RatePoint] {
  /// Reads recent ECB rates by pair (``RateDesk/recentFiatSeries(_:)``) as `JSONEncoder`
  /// wrote them: an object keyed `BASE-QUOTE`. A name that is not a pair, or a pair twice
  /// (in any case), is refused.
  public init(cacheJSON reader: inout JSONReader) throws(JSONReader.Failure) {
    var series: [CurrencyPairKey: [RatePoint]] = [:]
    try reader.members { name, reader throws(JSONReader.Failure) in
      guard let pair = CurrencyPairKey(name), series[pair] == nil else {
        throw .shape("one BASE-QUOTE name per pair")
      }
      series[pair] = try RatePoint.array(cacheJSON: &reader)
    }
    self = series
  }
}

extension RateService.DaySpan: CacheReadable {
  private static let cacheMembers = ["from", "through"]

  /// Reads a span as `JSONEncoder` wrote it.
  init(cacheJSON reader: inout JSONReader) throws(JSONReader.Failure) {
    var (from, through): (Day?, Day?)
    try reader.object(Self.cacheMembers) { index, reader throws(JSONReader.Failure) in
      if index == 0 { from = try reader.day() } else { through = try reader.day() }
    }
    guard let from, let through else { throw .shape("a span of days") }
    self.init(from: from, through: through)
  }
}

extension RateService.HistoryCacheValue: CacheReadable {
  private static let cacheMembers = [
    "closes", "coverage", "latest", "latestFetchedAt", "latestUpdatedAt",
  ]

  /// Reads a history entry as `JSONEncoder` wrote it.
  init(cacheJSON reader: inout JSONReader) throws(JSONReader.Failure) {
    var closes: [RatePoint]?
    var (coverage, latest): (RateService.DaySpan?, RatePoint?)
    var (fetchedAt, updatedAt): (Date?, Date?)
    try reader.object(Self.cacheMembers) { index, reader throws(JSONReader.Failure) in
      switch index {
      case 0: closes = try RatePoint.array(cacheJSON: &reader)
      case 1: coverage = try reader.null() ? nil : try RateService.DaySpan(cacheJSON: &reader)
      case 2: latest = try reader.null() ? nil : try RatePoint(cacheJSON: &reader)
      case 3: fetchedAt = try reader.null() ? nil : try reader.date()
      default: updatedAt = try reader.null() ? nil : try reader.date()
      }
    }
    guard let closes else { throw .shape("a history entry") }
    self.init(
      closes: closes, coverage: coverage, latest: latest, latestFetchedAt: fetchedAt,
      latestUpdatedAt: updatedAt)
  }
}

extension JSONReader {
  /// A price or rate the providers' gate accepts (``AnswerGate/isPrice(_:)``), as every cached
  /// one was: a file's 0, negative, underflowing `1e-400` or `1e308` would reach arithmetic
  /// (`= inf EUR`) that no provider answer can.
  fileprivate mutating func price() throws(Failure) -> Double {
    let value = try double()
    guard AnswerGate.isPrice(value) else { throw .shape("a plausible price") }
    return value
  }

  /// A 24-hour change the gate accepts (``AnswerGate/isChangePercent(_:)``).
  fileprivate mutating func changePercent() throws(Failure) -> Double {
    let value = try double()
    guard AnswerGate.isChangePercent(value) else { throw .shape("a plausible change") }
    return value
  }
}
