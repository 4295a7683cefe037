import RateCore

/// `rates ledger export --csv` and `rates ledger import [--from rates] <FILE.csv>`.
extension LedgerCommand {
  /// The largest file `import` reads: far more than a lifetime of hand-recorded exchanges.
  static let maximumImportBytes = 64 * 1024 * 1024

  static func export(_ invocation: Invocation) throws -> ExitCode {
    let ledger = try invocation.userData().ledger.read()
    // The document already ends with CR LF: write it as is, without `out`'s extra newline.
    invocation.context.writeOut(LedgerCSV.document(ledger.oldestFirst))
    return .success
  }

  static func importFile(_ path: String, dryRun: Bool, _ invocation: Invocation) throws -> ExitCode {
    let data = try Self.readImport(path)
    guard let text = String(data: data, encoding: .utf8) else {
      throw UsageError.invalid(
        "\(LedgerInput.quoted(path)) is not UTF-8 text; nothing was imported")
    }
    let now = invocation.context.now()
    let entries: [LedgerEntry]
    do {
      entries = try LedgerCSV.entries(fromCSV: text, today: Day(containing: now), recordedAt: now)
    } catch {
      throw ImportRefusal(message: Self.describe(error))
    }
    let store = invocation.userData().ledger
    let (added, skipped): ([LedgerEntry], [LedgerEntry])
    if dryRun {
      var copy = try store.read()
      let (new, known) = Self.withoutKnown(entries, in: copy.entries)
      (added, skipped) = (copy.append(contentsOf: new), known)
    } else {
      (added, skipped) = try store.update { ledger -> ([LedgerEntry], [LedgerEntry]) in
        let (new, known) = Self.withoutKnown(entries, in: ledger.entries)
        return (ledger.append(contentsOf: new), known)
      }
    }
    if !skipped.isEmpty {
      invocation.err("note: skipped \(Self.exchanges(skipped.count)) already in the ledger")
    }
    let document = LedgerChangeDocument(
      added: added.map { LedgerEntryJSON($0) }, removed: [],
      unchanged: skipped.map { LedgerEntryJSON($0) }, fetchedAt: now, dryRun: dryRun ? true : nil)
    try invocation.write(
      CommandOutput(document: document) { _ in
        dryRun
          ? (["Would import \(Self.exchanges(added.count)); nothing was written (--dry-run)."]
            + added.map(Self.line)).joined(separator: "\n")
          : Self.imported(added, skipped: skipped.count)
      })
    return .success
  }

  /// The imported entries that are not in `ledger` yet, and the ledger's entries the others
  /// match: the one rule of "already in the ledger" for every import. An entry imported from an
  /// exchange's file (with an ``LedgerEntry/importID``) matches the ledger entry with the same
  /// import id, and only that; any other entry matches one ledger entry of the same terms
  /// (``ExchangeKey``), each ledger entry once, so importing your own export adds nothing, and a
  /// file that holds the same exchange twice adds both to a ledger that holds neither.
  static func withoutKnown(_ imported: [LedgerEntry], in ledger: [LedgerEntry])
    -> (new: [LedgerEntry], matched: [LedgerEntry])
  {
    var unmatched: [ExchangeKey: [LedgerEntry]] = [:]
    var byImportID: [String: LedgerEntry] = [:]
    for entry in ledger {
      unmatched[ExchangeKey(entry), default: []].append(entry)
      if let id = entry.importID { byImportID[id] = entry }
    }
    var new: [LedgerEntry] = []
    var matched: [LedgerEntry] = []
    for entry in imported {
      if let id = entry.importID {
        if let known = byImportID[id] { matched.append(known) } else { new.append(entry) }
        continue
      }
      let key = ExchangeKey(entry)
      if let known = unmatched[key]?.popLast() {
        matched.append(known)
      } else {
        new.append(entry)
      }
    }
    return (new, matched)
  }

  /// `Imported 3 exchanges as #4 to #6.`, or that the file held none new.
  static func imported(_ added: [LedgerEntry], skipped: Int) -> String {
    guard let first = added.first, let last = added.last else {
      return skipped > 0
        ? "Every exchange of the file is already in the ledger; nothing was imported."
        : "The file holds no exchanges; nothing was imported."
    }
    let ids = first.id == last.id ? "#\(first.id)" : "#\(first.id) to #\(last.id)"
    return "Imported \(exchanges(added.count)) as \(ids)."
  }

  /// `1 exchange`, `3 exchanges`.
  static func exchanges(_ number: Int) -> String { number == 1 ? "1 exchange" : "\(number) exchanges" }

  /// A file `import` will not take, and why (bad lines, a foreign separator): a usage
  /// error (64) about the file's data, so it is reported in one line without the usage.
  struct ImportRefusal: Error, Equatable, LocalizedError {
    var message: String
    var errorDescription: String? { message }
  }

  /// The file's bytes, or standard input's for `-`.
  static func readImport(_ path: String) throws -> Data {
    if path == "-" {
      let bytes: [UInt8]?
      do { bytes = try RegularFile.readAll(0, limit: maximumImportBytes) } catch {
        throw DataFileError.unreadable(path: "standard input", reason: error.reason)
      }
      guard let bytes else {
        throw DataFileError.unreadable(path: "standard input", reason: "larger than 64 MB")
      }
      return Data(bytes)
    }
    let url = URL(fileURLWithPath: path)
    guard let isDirectory = FileManager.default.isDirectory(atPath: url.path) else {
      throw DataFileError.unreadable(path: url.path, reason: "no such file")
    }
    guard !isDirectory else {
      throw DataFileError.unreadable(path: url.path, reason: "it is a directory")
    }
    let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
    if let size = attributes?[.size] as? UInt, size > maximumImportBytes {
      throw DataFileError.unreadable(path: url.path, reason: "larger than 64 MB")
    }
    do {
      return try Data(contentsOf: url)
    } catch {
      throw DataFileError.unreadable(path: url.path, reason: error.readableDescription)
    }
  }

  /// One line for every bad line: `line 3: …; nothing was imported`, naming how many more.
  static func describe(_ problems: LedgerCSV.Problems) -> String {
    if let separator = problems.foreignSeparator {
      return "line 1: \(separator.message); nothing was imported"
    }
    guard let first = problems.problems.first else { return "nothing was imported" }
    var text = "line \(first.line): \(first.reason)"
    let others = problems.problems.dropFirst()
    if !others.isEmpty {
      let lines = others.prefix(5).map { String($0.line) }.joined(separator: ", ")
      let more = others.count > 5 ? ", …" : ""
      text += " (and \(others.count) more bad line\(others.count == 1 ? "" : "s"): \(lines)\(more))"
    }
    return text + "; nothing was imported"
  }

  /// What makes two entries the same exchange, whatever their ids: everything but the id,
  /// `recordedAt` and whether it was a transfer; hashed, so checking an import against the
  /// ledger stays linear.
  struct ExchangeKey: Hashable {
    var date: Day
    /// The entry's terms, as `ledger add` takes them (no transfer, no date text).
    var terms: NewEntry

    init(_ entry: LedgerEntry) {
      date = entry.date
      terms = NewEntry(
        side: entry.side, amount: entry.amount, currency: entry.currency,
        counterAmount: entry.counterAmount, counterCurrency: entry.counterCurrency,
        counterparty: entry.counterparty, note: entry.note)
    }
  }
}
