/// One line of the ledger log (format 2) after its header: an exchange added, or exchanges
/// removed.
///
/// ```
/// {"op":"add","id":7,"date":"2026-11-20","side":"sell","amount":100,"currency":"USD",
///  "counterAmount":8950000,"counterCurrency":"LBP","counterparty":"Abu Ali",
///  "recordedAt":"2026-11-20T10:15:00Z"}
/// {"op":"remove","ids":[3,4]}
/// ```
///
/// An `add` line whose date is earlier than a date added before it carries `maxDate`, the
/// latest date of any exchange added on or before that line; without it the latest date is
/// the line's own `date`. A reader going backwards from the end of the file stops at the first
/// `add` line whose latest date is before the window it wants: nothing earlier can be in it.
/// Members of an `add` line this version does not know are kept, as written, through rewrites.
enum LedgerRecord: Equatable, Sendable {
  /// An exchange recorded; `latest` is the line's `maxDate` or its date.
  case add(LedgerEntry, latest: Day, unknownMembers: [UInt8])
  /// Exchanges removed by id.
  case remove(ids: [Int])

  /// The `add` record's entry.
  var entry: LedgerEntry? {
    if case .add(let entry, _, _) = self { return entry }
    return nil
  }
}

/// Why a line is not a record; `detail` completes "line N: ".
struct LedgerLineError: Error, Equatable, Sendable {
  var detail: String
}
