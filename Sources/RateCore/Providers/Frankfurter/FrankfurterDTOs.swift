/// `/latest` and `/YYYY-MM-DD`:
/// `{"amount":1.0,"base":"EUR","date":"2024-06-07","rates":{"GBP":0.8495,…}}`.
///
/// The base never appears in `rates`; `date` is the ECB working day the rates
/// belong to, which may be earlier than the day asked for.
struct FrankfurterLatestDTO: Decodable {
  let amount: Double?
  let base: String
  let date: Day
  let rates: [String: Double]
}

/// `/START..END` and `/START..`: one object of rates per working day, keyed
/// by `YYYY-MM-DD` (week-start dates for long ranges before December 2024).
struct FrankfurterSeriesDTO: Decodable {
  let amount: Double?
  let base: String
  let rates: [String: [String: Double]]
}

/// Every error body: `{"message":"not found"}`, `{"message":"bad currency pair"}`,
/// `{"message":"invalid date"}`, `{"message":"invalid amount"}`.
///
/// A body that is not this JSON (a proxy's page) is kept as trimmed text,
/// except HTML, which says nothing a terminal should show.
struct FrankfurterErrorBody: Equatable {
  var message: String

  init(data: Data) {
    struct Wire: Decodable { let message: String }
    if let wire = try? JSONDecoder().decode(Wire.self, from: data) {
      message = wire.message
      return
    }
    let text = String(decoding: data.prefix(300), as: UTF8.self)
      .trimming(.whitespacesAndNewlines)
    message = text.hasPrefix("<") ? "" : text
  }
}
