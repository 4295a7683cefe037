/// A number that may arrive as a JSON number or as a string with `,`
/// thousands separators (CoinDesk's `rate_float` for some currencies).
struct LenientDouble: Decodable {
  let value: Double

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let number = try? container.decode(Double.self) {
      value = number
      return
    }
    let text = try container.decode(String.self)
    guard let number = Double(text.replacing(",", with: "")), number.isFinite
    else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "expected a number, found '\(text)'")
    }
    value = number
  }
}

/// `/currentprice/{CODE}.json` and `/currentprice.json`.
struct CoinDeskCurrentPriceDTO: Decodable {
  struct Time: Decodable {
    let updatedISO: String?
  }
  struct Entry: Decodable {
    let code: String
    let rateFloat: LenientDouble

    enum CodingKeys: String, CodingKey {
      case code
      case rateFloat = "rate_float"
    }
  }
  let time: Time?
  let bpi: [String: Entry]
}

/// `/historical/close.json`: `{"bpi": {"2022-07-01": 19297.3133, …}}`, in no
/// particular key order; `{}` when the range is empty.
struct CoinDeskHistoricalDTO: Decodable {
  let bpi: [String: LenientDouble]?
}
