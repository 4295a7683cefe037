/// One currency exchange the user made, recorded by hand for a market no API covers
/// (street rates such as USD/LBP).
///
/// The entry reads as a sentence: on `date` the user `side`-ed `amount` `currency` for
/// `counterAmount` `counterCurrency`. A `.sell` of 100 USD for 8,950,000 LBP means the user
/// gave 100 USD and received 8,950,000 LBP; a `.buy` of 100 USD for 8,950,000 LBP means the
/// user received 100 USD and paid 8,950,000 LBP.
public struct LedgerEntry: Codable, Equatable, Sendable {
  /// Which way the money went, from the point of view of the entry's first currency.
  public enum Side: String, Codable, Sendable, CaseIterable {
    /// The user gave `amount` `currency` and received the counter amount.
    case sell
    /// The user received `amount` `currency` and paid the counter amount.
    case buy

    /// The other side.
    public var opposite: Side { self == .sell ? .buy : .sell }
  }

  /// A stable identifier, unique in its ledger and never reused.
  public var id: Int
  /// The UTC day of the exchange.
  public var date: Day
  /// Whether the user sold or bought `currency`.
  public var side: Side
  /// How much of `currency` changed hands; positive.
  public var amount: Double
  /// The code of the entry's first currency, such as `USD`.
  public var currency: CurrencyCode
  /// How much of `counterCurrency` changed hands; positive.
  public var counterAmount: Double
  /// The code of the other currency, such as `LBP`.
  public var counterCurrency: CurrencyCode
  /// Who the exchange was with, if the user said.
  public var counterparty: String?
  /// A free-form note.
  public var note: String?
  /// When the entry was recorded (or imported).
  public var recordedAt: Date
  /// Set when the entry is not an exchange but money moved in or out of the ledger (an
  /// opening balance, a transfer); nil for an exchange, as in every older ledger.
  ///
  /// A transfer moves `amount` `currency`; its cost, when the user gave one, is
  /// `counterAmount` `counterCurrency` (else `0` and `""`). Transfers never enter street
  /// rates (``oriented(base:quote:)`` is nil for them).
  public var transfer: Transfer?
  /// Where an imported entry came from: the exchange family, the exchange's transaction id
  /// (or a digest of the row where the file has none) and the leg, such as
  /// `kraken:LLPJSO-KWCYV-ZCXUIN#fee`; nil for an entry typed in. Two entries with the
  /// same import id are the same entry (``ExchangeImport`` skips it on a second import).
  public var importID: String?
  /// What an imported deposit or withdrawal stands for, beyond moving money: a fee paid, or
  /// income received (a reward, staking, interest); nil otherwise.
  public var role: Role?

  /// The meaning of an imported transfer leg.
  public enum Role: String, Codable, Sendable, CaseIterable {
    /// A fee, as a withdrawal of the asset it was paid in.
    case fee
    /// Income (a reward, staking, interest, a voucher), as a deposit valued on receipt.
    case income
  }

  /// Money that came into or left the ledger without an exchange.
  public enum Transfer: String, Codable, Sendable, CaseIterable {
    /// `amount` `currency` came in (an opening balance, a transfer in).
    case deposit
    /// `amount` `currency` went out (a transfer out).
    case withdrawal
  }

  /// A transfer of `amount` `currency`, with its cost when known.
  public static func transferEntry(
    _ kind: Transfer, id: Int = 0, date: Day, amount: Double, currency: CurrencyCode,
    cost: (amount: Double, currency: CurrencyCode)? = nil, note: String? = nil, recordedAt: Date
  ) -> LedgerEntry {
    var entry = LedgerEntry(
      id: id, date: date, side: kind == .deposit ? .buy : .sell, amount: amount,
      currency: currency, counterAmount: cost?.amount ?? 0,
      counterCurrency: cost?.currency ?? "", note: note, recordedAt: recordedAt)
    entry.transfer = kind
    return entry
  }

  /// A transfer's cost (`counterAmount` `counterCurrency`), nil for an exchange or when the
  /// user gave none.
  public var cost: (amount: Double, currency: CurrencyCode)? {
    guard transfer != nil, counterAmount > 0, !counterCurrency.text.isEmpty else { return nil }
    return (counterAmount, counterCurrency)
  }

  /// Creates an entry.
  public init(
    id: Int, date: Day, side: Side, amount: Double, currency: CurrencyCode, counterAmount: Double,
    counterCurrency: CurrencyCode, counterparty: String? = nil, note: String? = nil,
    recordedAt: Date
  ) {
    self.id = id
    self.date = date
    self.side = side
    self.amount = amount
    self.currency = currency
    self.counterAmount = counterAmount
    self.counterCurrency = counterCurrency
    self.counterparty = counterparty
    self.note = note
    self.recordedAt = recordedAt
  }

  /// The entry seen from the pair `base`-`quote`: the side the user took on `base`, and the
  /// amounts of each; nil when the entry is not an exchange between those two currencies.
  ///
  /// An entry recorded the other way round (a sale of 8,950,000 LBP for 100 USD, seen as
  /// USD-LBP) flips its side: selling LBP for USD is buying USD.
  /// - Parameters:
  ///   - base: The currency the rate prices (`USD`).
  ///   - quote: The currency the rate is in (`LBP`).
  /// - Returns: The side taken on `base`, the `base` amount and the `quote` amount.
  public func oriented(base: CurrencyCode, quote: CurrencyCode) -> (
    side: Side, baseAmount: Double, quoteAmount: Double
  )? {
    guard transfer == nil else { return nil }
    if currency == base && counterCurrency == quote {
      return (side, amount, counterAmount)
    }
    if currency == quote && counterCurrency == base {
      return (side.opposite, counterAmount, amount)
    }
    return nil
  }

  /// The exchange rate this entry implies for `base`-`quote`: units of `quote` per unit of
  /// `base`.
  ///
  /// A sale of 100 USD for 8,950,000 LBP gives 89,500 for `USD`/`LBP` and 1/89,500 for
  /// `LBP`/`USD`.
  /// - Returns: The rate, or nil when the entry is between other currencies or an amount is
  ///   not a positive finite number (a hand-edited file).
  public func rate(base: CurrencyCode, quote: CurrencyCode) -> Double? {
    guard let oriented = oriented(base: base, quote: quote),
      oriented.baseAmount > 0, oriented.quoteAmount > 0
    else { return nil }
    let rate = oriented.quoteAmount / oriented.baseAmount
    return rate.isFinite ? rate : nil
  }

  /// The rate in the entry's own direction: `counterCurrency` per unit of `currency`.
  public var rate: Double? { rate(base: currency, quote: counterCurrency) }
}

/// The user's ledger of exchanges, as stored in `ledger.json`.
public struct Ledger: Codable, Equatable, Sendable {
  /// The id the next recorded entry gets; ids are never reused, even after a removal.
  public var nextID: Int
  /// Every entry, in the order recorded.
  public var entries: [LedgerEntry]

  /// Creates a ledger; the default is the empty ledger of a new user.
  public init(nextID: Int = 1, entries: [LedgerEntry] = []) {
    self.nextID = nextID
    self.entries = entries
  }

  /// Appends `entry` under a new id and returns it as stored.
  ///
  /// The id is `nextID`, raised past every id already present, so a hand-edited file with a
  /// stale `nextID` still never hands out an id twice.
  @discardableResult
  public mutating func append(_ entry: LedgerEntry) -> LedgerEntry {
    append(contentsOf: [entry])[0]
  }

  /// Appends `newEntries` under new, increasing ids (one scan of the existing
  /// ids for all of them, so a large import stays linear) and returns them as stored.
  @discardableResult
  public mutating func append(contentsOf newEntries: [LedgerEntry]) -> [LedgerEntry] {
    var next = Swift.max(nextID, (entries.map(\.id).max() ?? 0) + 1)
    let stored = newEntries.map { entry -> LedgerEntry in
      var entry = entry
      entry.id = next
      next += 1
      return entry
    }
    nextID = next
    entries.append(contentsOf: stored)
    return stored
  }

  /// The entries newest first: by date, then by id, both descending.
  public var newestFirst: [LedgerEntry] {
    entries.sorted { ($0.date, $0.id) > ($1.date, $1.id) }
  }

  /// The entries oldest first: by date, then by id.
  public var oldestFirst: [LedgerEntry] { entries.oldestFirst() }
}

extension LedgerEntry {
  /// The import id of the `index`th fee leg (0 first) of the imported entry `owner`:
  /// `<owner>#fee`, `<owner>#fee2`, …
  static func feeImportID(owner: String, index: Int) -> String {
    owner + (index == 0 ? "#fee" : "#fee\(index + 1)")
  }

  /// For a fee leg, the import id of the entry it is the fee of (`<owner>` of `<owner>#fee2`);
  /// nil for any other entry.
  public var feeOwner: String? {
    guard role == .fee, let id = importID, let mark = id.utf8.lastIndex(of: UInt8(ascii: "#")),
      id.utf8[mark...].starts(with: "#fee".utf8)
    else { return nil }
    return String(id[..<mark])
  }
}

extension Sequence<LedgerEntry> {
  /// The entries in the order they happened, up to `last`: by day, and a day's in the order
  /// recorded (by id). The one order of the ledger's walks and its oldest-first listings.
  public func oldestFirst(through last: Day = .latest) -> [LedgerEntry] {
    filter { $0.date <= last }.sorted { ($0.date, $0.id) < ($1.date, $1.id) }
  }
}
