/// An amount as an export file writes it: the digits kept as text, the value for the ledger.
///
/// The ledger stores `Double`; the file's digits are kept in ``text`` (which enters the row
/// digest, so re-importing finds the same entries) and the value is Swift's correctly rounded
/// reading of that text: no arithmetic in binary happens before it is stored, and sums of legs
/// (Binance statements, Coinbase Exchange totals) are done in `Decimal`.
struct ImportAmount: Equatable, Sendable {
  /// The number as a plain decimal: signs, currency symbols, units and thousands separators
  /// removed (`-€597.49846` → `-597.49846`, `"$1,234.56"` → `1234.56`, `1.0e-08` kept).
  var text: String
  /// The value, to `Decimal`'s 38 digits.
  var decimal: Decimal

  /// The longest cell read as a number (Coinbase writes 24 decimals and a symbol).
  static let maximumLength = 80

  var value: Double { Double(decimal.description) ?? 0 }
  var isZero: Bool { decimal.isZero }
  var magnitude: ImportAmount {
    decimal < 0 ? ImportAmount(text: String(text.drop { $0 == "-" }), decimal: -decimal) : self
  }

  /// Reads `raw`; nil when it is not a number (an empty cell, a placeholder).
  static func read(_ raw: String) -> ImportAmount? {
    // No export writes a number this long; a longer cell is not read (a hostile 10 MB cell).
    guard raw.utf8.count <= maximumLength else { return nil }
    var text = raw.trimming(.whitespaces)
    var negative = false
    if text.hasPrefix("-") {
      negative = true
      text.removeFirst()
    }
    text = String(text.drop { "$€£¥".contains($0) })
    if text.hasPrefix("-") {
      negative.toggle()
      text.removeFirst()
    }
    if text.contains(","), isThousandsGrouped(text) { text = text.replacing(",", with: "") }
    guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || ".eE+-".contains($0)) }),
      text.first?.isNumber == true, let double = Double(text), double.isFinite,
      let decimal = Decimal(string: text)
    else { return nil }
    let signed = negative ? "-" + text : text
    return ImportAmount(text: signed, decimal: negative ? -decimal : decimal)
  }

  /// `1,234.56` or `12,345`: groups of three digits after the first comma.
  static func isThousandsGrouped(_ text: String) -> Bool {
    let whole = text.prefix { $0 != "." }
    let groups = whole.split(separator: ",", omittingEmptySubsequences: false)
    guard let first = groups.first, (1...3).contains(first.count) else { return false }
    return groups.dropFirst().allSatisfy { $0.count == 3 && $0.allSatisfy(\.isNumber) }
  }

  /// A number glued to its unit, as Binance writes `0.1800000000SOL`: the amount and the unit
  /// as written.
  static func readUnit(_ raw: String) -> (ImportAmount, String)? {
    let text = raw.trimming(.whitespaces)
    let number = text.prefix { $0.isNumber || $0 == "." || $0 == "," || $0 == "-" }
    let unit = text.dropFirst(number.count).trimming(.whitespaces)
    guard let amount = read(String(number)), !unit.isEmpty else { return nil }
    return (amount, String(unit))
  }

  static func + (lhs: ImportAmount, rhs: ImportAmount) -> ImportAmount {
    let sum = lhs.decimal + rhs.decimal
    return ImportAmount(text: sum.description, decimal: sum)
  }

  static func - (lhs: ImportAmount, rhs: ImportAmount) -> ImportAmount {
    let difference = lhs.decimal - rhs.decimal
    return ImportAmount(text: difference.description, decimal: difference)
  }
}

/// The times export files write, read to the UTC day of the event.
enum ImportTime {
  /// The UTC day of `text`: `2023-04-20T04:05:40Z`, `2025-01-17 16:57:02 UTC`,
  /// `2021-02-02 13:30:51.7025` (naive, UTC) or Binance's `23-09-20 18:20:55` (two-digit year,
  /// local time `offset` seconds east of UTC). Nil for anything else (`12/24/19 3:04 AM`).
  static func day(_ text: String, offset: Int = 0) -> Day? {
    var text = text.trimming(.whitespaces)
    // ISO 8601's `T` between the date and the time (only there: `UTC` has a T too).
    if let date = text.firstIndex(where: { $0 == "T" || $0 == " " }), text[date] == "T" {
      text.replaceSubrange(date...date, with: " ")
    }
    var parts = text.split(separator: " ").map(String.init)
    guard parts.count >= 2, parts.count <= 3 else { return nil }
    var zone = parts.count == 3 ? parts.removeLast() : ""
    var clock = parts[1]
    if clock.hasSuffix("Z") {
      clock.removeLast()
      zone = "UTC"
    }
    guard let date = civilDay(parts[0]), let seconds = secondsOfDay(clock) else { return nil }
    var shift = offset
    switch zone {
    case "": break
    case "UTC", "Z", "+00:00", "+0000": shift = 0
    default: return nil
    }
    let instant = date.daysSinceEpoch * 86_400 + seconds - shift
    return Day(daysSinceEpoch: Int((Double(instant) / 86_400).rounded(.down)))
  }

  /// `2023-04-20` or `23-04-20` (20YY).
  static func civilDay(_ text: String) -> Day? {
    let fields = text.split(separator: "-", omittingEmptySubsequences: false)
    guard fields.count == 3, fields.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }),
      fields[1].count == 2, fields[2].count == 2,
      fields[0].count == 4 || fields[0].count == 2,
      var year = Int(fields[0]), let month = Int(fields[1]), let day = Int(fields[2])
    else { return nil }
    if fields[0].count == 2 { year += 2000 }
    return Day(year: year, month: month, day: day)
  }

  /// `13:30:51`, `13:30:51.7025` → seconds since midnight.
  static func secondsOfDay(_ text: String) -> Int? {
    let whole = text.prefix { $0 != "." }
    let fraction = text.dropFirst(whole.count + 1)
    let fields = whole.split(separator: ":", omittingEmptySubsequences: false)
    guard fields.count == 3, fields.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isNumber) }),
      fraction.allSatisfy(\.isNumber),
      let hour = Int(fields[0]), let minute = Int(fields[1]), let second = Int(fields[2]),
      hour < 24, minute < 60, second < 61
    else { return nil }
    return hour * 3600 + minute * 60 + second
  }

  /// The zone Binance names only in a download's file name, `…(UTC--6)_abcd.csv` or
  /// `…(UTC+5:30)…`, in seconds east of UTC; nil when the name carries none.
  static func binanceOffset(fileName: String) -> Int? {
    guard let open = fileName.firstRange(of: "(UTC"),
      let close = fileName[open.upperBound...].firstIndex(of: ")")
    else { return nil }
    var spec = String(fileName[open.upperBound..<close])
    if spec.isEmpty { return 0 }
    if spec.hasPrefix("-") || spec.hasPrefix("+") {
      let sign: Int = spec.removeFirst() == "-" ? -1 : 1
      // Binance writes UTC−6 as `UTC--6`: a minus, then the signed hours.
      let negative = spec.hasPrefix("-")
      if negative { spec.removeFirst() }
      let pieces = spec.split(separator: ":")
      guard let hours = pieces.first.flatMap({ Int($0) }), hours <= 14 else { return nil }
      let minutes = pieces.count > 1 ? Int(pieces[1]) ?? 0 : 0
      let total = hours * 3600 + minutes * 60
      return negative ? -total : sign * total
    }
    return nil
  }
}

/// Exchange asset codes as the usual symbols: the one table of Kraken's legacy codes.
enum AssetSymbols {
  /// Kraken's four-letter legacy codes (X for crypto, Z for fiat) and `XBT`/`XDG`.
  static let kraken: [String: String] = [
    "XXBT": "BTC", "XBT": "BTC", "XETH": "ETH", "XXDG": "DOGE", "XDG": "DOGE", "XLTC": "LTC",
    "XXRP": "XRP", "XXLM": "XLM", "XXMR": "XMR", "XETC": "ETC", "XZEC": "ZEC", "XMLN": "MLN",
    "XREP": "REP", "ZEUR": "EUR", "ZUSD": "USD", "ZGBP": "GBP", "ZCAD": "CAD", "ZJPY": "JPY",
    "ZAUD": "AUD", "ZCHF": "CHF",
  ]

  /// Kraken quote codes, longest first, to split a pair such as `XXBTZEUR` or `XBTUSDC`.
  static let krakenQuotes = [
    "ZEUR", "ZUSD", "ZGBP", "ZCAD", "ZJPY", "ZAUD", "ZCHF", "XXBT", "XETH", "USDC", "USDT",
    "DAI", "EUR", "USD", "GBP", "CAD", "JPY", "AUD", "CHF", "XBT", "ETH", "DOT",
  ]

  /// Receipt tokens that stand for the coin they were issued for (staking wrappers).
  static let receiptTokens: [CurrencyCode: CurrencyCode] = ["ETH2": "ETH", "BETH": "ETH"]

  /// A Kraken asset (`XXBT`, `ATOM.S`, `XTZ`) as its symbol: suffixes naming a sub-account
  /// (`.S`, `.M`, `.F`, `.B`) dropped, legacy codes from the table, others as they are.
  static func kraken(_ code: String) -> String {
    let base = code.split(separator: ".").first.map(String.init) ?? code
    let upper = CurrencyCode(base).text
    return kraken[upper] ?? upper
  }

  /// A symbol the ledger can hold: 2 to 12 upper-case letters and digits; nil otherwise.
  static func symbol(_ raw: String) -> CurrencyCode? {
    guard let code = CurrencyCode(raw, shape: .imported) else { return nil }
    return receiptTokens[code] ?? code
  }

  /// `XXBTZEUR` → (`BTC`, `EUR`), `XBTUSDC` → (`BTC`, `USDC`), `POL/EUR` → (`POL`, `EUR`).
  static func splitKrakenPair(_ pair: String) -> (String, String)? {
    let upper = pair.uppercased()
    if let slash = upper.firstIndex(of: "/") {
      return (kraken(String(upper[..<slash])), kraken(String(upper[upper.index(after: slash)...])))
    }
    for quote in krakenQuotes.sorted(by: { $0.count > $1.count })
    where upper.hasSuffix(quote) && upper.count > quote.count {
      return (kraken(String(upper.dropLast(quote.count))), kraken(quote))
    }
    return nil
  }
}
