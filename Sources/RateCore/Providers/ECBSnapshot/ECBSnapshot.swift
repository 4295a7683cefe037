import CECBSnapshot

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The ECB's daily euro reference rates (`eurofxref-hist`, 1999-01-04 onwards)
/// as built into the binary: the answer of last resort for fiat rates when
/// Frankfurter is unreachable and nothing is cached.
///
/// The data is `Sources/CECBSnapshot/eurofxref.bin`, made by
/// `scripts/update-ecb-snapshot.sh` (format in the script) and embedded with
/// C23 `#embed`. Nothing is read until the first use of ``embedded``; then only
/// the header (the days and where each currency's column is) is decoded, and a
/// question decodes just the two columns it needs (a few thousand varints).
///
/// Source: European Central Bank, euro foreign exchange reference rates
/// (reuse permitted with the source acknowledged).
public struct ECBSnapshot: Sendable {
  /// Where one currency's rates are in the column area.
  struct Column: Sendable {
    var decimals: Int
    var range: Range<Int>
  }

  /// The ECB working days, oldest first.
  public let days: [Day]
  let columns: [String: Column]
  let bytes: [UInt8]
  /// Where the column area starts in ``bytes``.
  let columnStart: Int

  /// The snapshot built into this binary; `nil` only if it is unreadable
  /// (it is checked by the tests). Decoded once, on first use.
  public static let embedded: ECBSnapshot? = {
    let size = rates_ecb_snapshot_size()
    let bytes = Array(UnsafeBufferPointer(start: rates_ecb_snapshot_bytes(), count: size))
    return ECBSnapshot(bytes: bytes)
  }()

  /// Decodes a snapshot made by `scripts/update-ecb-snapshot.sh`; `nil` when
  /// it is not one (wrong magic or version, truncated, out of bounds).
  init?(bytes: [UInt8]) {
    var reader = ByteReader(bytes: bytes)
    guard reader.take(4) == Array("RECB".utf8), reader.byte() == 1,
      let dayCount = reader.uint32(), dayCount > 0, let first = reader.uint32(),
      let currencyCount = reader.byte()
    else { return nil }
    var columns: [String: Column] = [:]
    for _ in 0..<currencyCount {
      guard let code = reader.take(3), let decimals = reader.byte(), decimals <= 15,
        let offset = reader.uint32(), let length = reader.uint32()
      else { return nil }
      columns[String(decoding: code, as: UTF8.self)] = Column(
        decimals: Int(decimals), range: Int(offset)..<(Int(offset) + Int(length)))
    }
    var day = Day(daysSinceEpoch: Int(Int32(bitPattern: first)))
    var days = [day]
    days.reserveCapacity(Int(dayCount))
    for _ in 1..<Int(dayCount) {
      guard let gap = reader.varint(), gap > 0, gap < 100 else { return nil }
      day = day.adding(days: Int(gap))
      days.append(day)
    }
    let areaLength = bytes.count - reader.offset
    guard columns.values.allSatisfy({ $0.range.upperBound <= areaLength }) else { return nil }
    self.days = days
    self.columns = columns
    self.bytes = bytes
    columnStart = reader.offset
  }

  /// The first day with rates.
  public var firstDay: Day { days[0] }
  /// The last day with rates.
  public var lastDay: Day { days[days.count - 1] }
  /// The codes with at least one rate, EUR included (also currencies the ECB
  /// no longer publishes, such as CYP).
  public var currencies: Set<String> { Set(columns.keys).union(["EUR"]) }

  /// The source of an answer from the snapshot: named `ECB snapshot to 2026-10-30`.
  public var source: RateSource { .ecbSnapshot(through: lastDay) }

  /// How the name of every ``source`` begins.
  public static let sourcePrefix = "ECB snapshot to "

  /// When the snapshot's last rate was due (16:00 UTC of its day), the moment
  /// its data stands for.
  public var publishedAt: Date { lastDay.start.addingTimeInterval(UpdateRhythm.ecbDueAfter) }

  /// How many units of `code` one euro bought on each of ``days`` (`nil` where
  /// the ECB published none); `nil` for a code the snapshot lacks.
  func column(_ code: String) -> [Double?]? {
    let code = CurrencyCode(code).text
    if code == "EUR" { return Array(repeating: 1, count: days.count) }
    guard let column = columns[code] else { return nil }
    let scale = pow(10, Double(column.decimals))
    var reader = ByteReader(
      bytes: bytes, offset: columnStart + column.range.lowerBound,
      end: columnStart + column.range.upperBound)
    var mantissa: Int64 = 0
    var values: [Double?] = []
    values.reserveCapacity(days.count)
    for _ in days {
      guard let encoded = reader.varint() else { return nil }
      if encoded == 0 {
        values.append(nil)
        continue
      }
      let zigzag = encoded - 1
      mantissa &+= Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1)))
      // Both operands are exact, so the quotient is the double nearest to the
      // ECB's decimal figure, as parsing it would give.
      values.append(Double(mantissa) / scale)
    }
    return values
  }

  /// The rate of `base` in `quote` (`quote` units per `base` unit) on every
  /// working day in `range` when the ECB published both, through the euro:
  /// `quote per EUR / base per EUR`. Empty for a code the snapshot lacks.
  public func series(base: String, quote: String, in range: ClosedRange<Day>) -> [RatePoint] {
    guard let bases = column(base), let quotes = column(quote) else { return [] }
    let lower = firstIndex(onOrAfter: range.lowerBound)
    var points: [RatePoint] = []
    var index = lower
    while index < days.count, days[index] <= range.upperBound {
      if let per = bases[index], let rate = quotes[index], per > 0 {
        points.append(RatePoint(date: days[index], rate: Figure.crossRate(rate, per: per)))
      }
      index += 1
    }
    return points
  }

  /// The rate of `base` in `quote` standing on `day` by the ECB rule
  /// (``MarketClosure/standing(on:today:lookup:)``, `today` as given), with
  /// the day it was published for. `nil` when there is none (before 1999, a
  /// currency the ECB no longer published, a day after ``lastDay`` that the
  /// rule does not reach).
  public func rate(base: String, quote: String, on day: Day, today: Day)
    -> (point: RatePoint, published: Day)?
  {
    let read = day.adding(days: -(MarketClosure.maximumCarriedDays + 1))...day
    let byDay = Dictionary(
      series(base: base, quote: quote, in: read).map { ($0.date, $0) }, uniquingKeysWith: { $1 })
    return MarketClosure.standing(on: day, today: today) { byDay[$0] }
  }

  /// The index of the first working day on or after `day` (``days``'s count
  /// when there is none).
  func firstIndex(onOrAfter day: Day) -> Int {
    var low = 0
    var high = days.count
    while low < high {
      let middle = (low + high) / 2
      if days[middle] < day { low = middle + 1 } else { high = middle }
    }
    return low
  }
}

/// Reads the snapshot's little-endian integers and varints, never past `end`.
struct ByteReader {
  let bytes: [UInt8]
  var offset: Int
  let end: Int

  init(bytes: [UInt8], offset: Int = 0, end: Int? = nil) {
    self.bytes = bytes
    self.offset = offset
    self.end = min(end ?? bytes.count, bytes.count)
  }

  mutating func byte() -> UInt8? {
    guard offset < end else { return nil }
    defer { offset += 1 }
    return bytes[offset]
  }

  mutating func take(_ count: Int) -> [UInt8]? {
    guard offset + count <= end else { return nil }
    defer { offset += count }
    return Array(bytes[offset..<(offset + count)])
  }

  mutating func uint32() -> UInt32? {
    guard let four = take(4) else { return nil }
    return four.reversed().reduce(0) { $0 << 8 | UInt32($1) }
  }

  /// An unsigned LEB128 varint of at most 9 bytes.
  mutating func varint() -> UInt64? {
    var value: UInt64 = 0
    for shift in stride(from: 0, to: 63, by: 7) {
      guard let next = byte() else { return nil }
      value |= UInt64(next & 0x7F) << UInt64(shift)
      if next & 0x80 == 0 { return value }
    }
    return nil
  }
}
