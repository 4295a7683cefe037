import RateCore

/// `rates ledger export --csv` and `rates ledger import <FILE.csv>`.
extension LedgerCommand {
  /// The largest file `import` reads: far more than a lifetime of hand-recorded exchanges.
  static let maximumImportBytes = 64 * 1024 * 1024

  func export(_ invocation: Invocation) throws -> ExitCode {
    let ledger = try invocation.userData().ledger.read()
    // The document already ends with CR LF: write it as is, without `out`'s extra newline.
    invocation.context.writeOut(LedgerCSV.document(ledger.oldestFirst))
    return .success
  }

  func importFile(_ path: String, _ invocation: Invocation) throws -> ExitCode {
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
    let (added, duplicates) = try invocation.userData().ledger.update {
      ledger -> ([LedgerEntry], Int) in
      let known = Set(ledger.entries.map(ExchangeKey.init))
      let duplicates = entries.filter { known.contains(ExchangeKey($0)) }.count
      return (ledger.append(contentsOf: entries), duplicates)
    }
    if duplicates > 0 {
      invocation.err(
        "note: \(duplicates) of the imported exchanges match ones already in the ledger "
          + "(import does not skip duplicates; 'rates ledger remove' takes them out)")
    }
    let document = LedgerChangeDocument(
      added: added.map { LedgerEntryJSON($0) }, removed: [], fetchedAt: now)
    try invocation.write(CommandOutput(document: document) { _ in Self.imported(added) })
    return .success
  }

  /// `Imported 3 exchanges as #4 to #6.`, or that the file held none.
  static func imported(_ added: [LedgerEntry]) -> String {
    guard let first = added.first, let last = added.last else {
      return "The file holds no exchanges; nothing was imported."
    }
    let count = added.count == 1 ? "1 exchange" : "\(added.count) exchanges"
    let ids = first.id == last.id ? "#\(first.id)" : "#\(first.id) to #\(last.id)"
    return "Imported \(count) as \(ids)."
  }

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
