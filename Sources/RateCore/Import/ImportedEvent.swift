/// One asset and a signed quantity: what moved in (positive) or out (negative) of the account.
struct ImportLeg: Equatable, Sendable {
  var asset: CurrencyCode
  var amount: ImportAmount
}

/// What one row (or one group of rows) of an export stands for, before it becomes entries.
struct ImportedEvent: Sendable {
  /// The movement.
  enum Kind: Sendable {
    /// A trade or conversion: `paid` (positive quantity) went out, `received` came in.
    case trade(paid: ImportLeg, received: ImportLeg)
    /// `leg` came in; `income` for rewards, staking and interest.
    case deposit(ImportLeg, income: Bool)
    /// `leg` went out.
    case withdrawal(ImportLeg)
    /// Only fees (a fee row whose trade is elsewhere).
    case feesOnly

    /// A trade of a pair's `base` against its `quote` by the side the file names in `column`
    /// (`buy`, `sell`, any case): a buy pays the quote for the base, a sell the base for the
    /// quote.
    static func trade(side: String, column: String, base: ImportLeg, quote: ImportLeg) throws(RowError) -> Kind {
      switch side.lowercased() {
      case "buy": return .trade(paid: quote, received: base)
      case "sell": return .trade(paid: base, received: quote)
      default: throw RowError(reason: "the \(column) \(ExchangeImport.shown(side)) is neither buy nor sell")
      }
    }
  }

  var line: Int
  var day: Day
  /// The exchange's transaction id, or a digest of the rows (``ImportDigest``).
  var id: String
  var kind: Kind
  /// Fees, each paid in its own asset, as positive quantities.
  var fees: [ImportLeg] = []
  /// What the exchange called it (`Staking Income`), kept as the entries' note.
  var label: String

  /// The ledger entries, each with its import id `<exchange>:id` plus the leg (`#fee`, `#fee2`).
  func entries(format: ExchangeFormat, recordedAt: Date) -> [LedgerEntry] {
    let base = "\(format.importIDPrefix):\(id)"
    var entries: [LedgerEntry] = []
    switch kind {
    case .trade(let paid, let received):
      var entry = LedgerEntry(
        id: 0, date: day, side: .sell, amount: paid.amount.magnitude.value, currency: paid.asset,
        counterAmount: received.amount.magnitude.value, counterCurrency: received.asset,
        counterparty: format.title, note: label, recordedAt: recordedAt)
      entry.importID = base
      entries.append(entry)
    case .deposit(let leg, let income):
      entries.append(transfer(.deposit, leg, id: base, role: income ? .income : nil, recordedAt))
    case .withdrawal(let leg):
      entries.append(transfer(.withdrawal, leg, id: base, role: nil, recordedAt))
    case .feesOnly: break
    }
    for (index, fee) in fees.enumerated() where !fee.amount.isZero {
      let id = LedgerEntry.feeImportID(owner: base, index: index)
      entries.append(transfer(.withdrawal, fee, id: id, role: .fee, recordedAt))
    }
    return entries
  }

  private func transfer(
    _ kind: LedgerEntry.Transfer, _ leg: ImportLeg, id: String, role: LedgerEntry.Role?,
    _ recordedAt: Date
  ) -> LedgerEntry {
    var entry = LedgerEntry.transferEntry(
      kind, date: day, amount: leg.amount.magnitude.value, currency: leg.asset,
      note: role == .fee ? "fee: \(label)" : label, recordedAt: recordedAt)
    entry.counterparty = nil
    entry.importID = id
    entry.role = role
    return entry
  }
}

/// A stable digest of a row's text, for layouts without transaction ids: FNV-1a over the
/// fields (the same file gives the same digest in every run and on every machine).
enum ImportDigest {
  static func of(_ fields: [String]) -> String {
    let hex = String(StableHash.fnv1a64(fields.joined(separator: "\u{1F}")), radix: 16)
    return "row-" + String(repeating: "0", count: 16 - hex.count) + hex
  }
}
