import RateCore

/// `rates ledger import --from <exchange>`: exchange exports into the ledger.
extension LedgerCommand {
  /// What `ledger import --from` was asked for.
  struct ExchangeImportRequest: Sendable, Equatable {
    var paths: [String]
    /// The exchange's export family `--from` named, or nil for `--from auto` (an input layout,
    /// never the output's form).
    var exchange: ExchangeFormat?
    var skipUnknown: Bool
    var dryRun: Bool
  }

  /// One file read and mapped.
  struct ImportedFile {
    var path: String
    var plan: ExchangeImport.Plan

    /// The file without the entries that name one of `codes`, nor their fee legs.
    func leavingOut(_ codes: Set<CurrencyCode>) -> ImportedFile {
      let dropped = Set(
        plan.entries.filter { codes.contains($0.currency) || codes.contains($0.counterCurrency) }
          .compactMap(\.importID))
      var file = self
      file.plan.entries.removeAll {
        codes.contains($0.currency) || codes.contains($0.counterCurrency)
          || $0.feeOwner.map(dropped.contains) == true
      }
      return file
    }
  }

  /// Reads every file first; any refusal writes nothing. Then adds the entries whose import id
  /// the ledger does not hold yet (all files in one update), or shows them with `--dry-run`.
  static func importExchange(_ request: ExchangeImportRequest, _ invocation: Invocation) async throws -> ExitCode {
    let now = invocation.context.now()
    var files: [ImportedFile] = []
    var refusals: [String] = []
    for path in request.paths {
      switch try Self.readExchangeFile(path, request, now: now) {
      case .success(let file): files.append(file)
      case .failure(let refusal): refusals.append(refusal.message)
      }
    }
    for file in files where !file.plan.unmappable.isEmpty && !request.skipUnknown {
      refusals.append(Self.describe(file.plan.unmappable, in: file.path, skipped: false))
    }
    let unpriced = try await Self.unpriced(files, invocation)
    if request.skipUnknown {
      for line in unpriced.lines { invocation.err("warning: skipped \(line)") }
      files = files.map { $0.leavingOut(unpriced.codes) }
    } else {
      refusals += unpriced.lines
    }
    guard refusals.isEmpty else {
      throw ImportRefusal(message: refusals.joined(separator: "\n") + "\nnothing was imported")
    }
    for file in files {
      if request.exchange == nil { invocation.err("note: \(file.path): read as \(file.plan.layout.name)") }
      for note in file.plan.notes { invocation.err("note: \(file.path): \(note)") }
      if !file.plan.unmappable.isEmpty {
        invocation.err(Self.describe(file.plan.unmappable, in: file.path, skipped: true))
      }
    }
    let read = files
    let (added, present) = try add(read, dryRun: request.dryRun, invocation)
    if !present.isEmpty {
      invocation.err("note: skipped \(Self.count(present.count)) already in the ledger")
    }
    let document = LedgerImportDocument(
      added: added.map { LedgerEntryJSON($0) }, unchanged: present.map { LedgerEntryJSON($0) },
      dryRun: request.dryRun, files: files.map(LedgerImportDocument.File.init), fetchedAt: now)
    try invocation.write(
      CommandOutput(document: document) { _ in
        Self.summary(added: added, present: present.count, files: read, dryRun: request.dryRun)
      })
    return .success
  }

  /// The new entries (stored, or as they would be) and the ledger's entries the others match
  /// (``withoutKnown(_:in:)``: the same import id).
  static func add(_ files: [ImportedFile], dryRun: Bool, _ invocation: Invocation) throws
    -> ([LedgerEntry], [LedgerEntry])
  {
    let entries = ExchangeImport.ledgerOrder(files.flatMap(\.plan.entries))
    let store = invocation.userData().ledger
    if dryRun {
      var copy = try store.read()
      let (new, matched) = Self.withoutKnown(entries, in: copy.entries)
      return (copy.append(contentsOf: new), matched)
    }
    return try store.update { ledger -> ([LedgerEntry], [LedgerEntry]) in
      let (new, matched) = Self.withoutKnown(entries, in: ledger.entries)
      return (ledger.append(contentsOf: new), matched)
    }
  }

  /// One line per code of `files` that no source prices (`FILE: line N: …`, its first line),
  /// so that nothing is stored that `portfolio` could never value: a code that is neither a
  /// currency nor a coin CoinGecko finds. A coin that cannot be looked up now (offline, a
  /// failing source) is imported with a note: `portfolio` will name it if it is unknown.
  static func unpriced(_ files: [ImportedFile], _ invocation: Invocation) async throws
    -> (lines: [String], codes: Set<CurrencyCode>)
  {
    let resolver = invocation.desk.resolver()
    var lines: [String] = []
    var unknown: Set<CurrencyCode> = []
    var unchecked: [String] = []
    let codes = Set(files.flatMap(\.plan.firstLines.keys)).sorted()
    for code in codes where !CurrencyCodes.fiat.contains(code.text) && !RetiredCurrencies.isRetired(code.text) {
      do {
        _ = try await resolver.resolve(code.text)
      } catch ProviderError.coinNotFound {
        unknown.insert(code)
        for file in files {
          guard let line = file.plan.firstLines[code] else { continue }
          lines.append(
            "\(file.path): line \(line): \(LedgerInput.quoted(code.text)) is neither a currency nor a coin "
              + "CoinGecko knows, so nothing could value it")
        }
      } catch is CoinResolver.Refusal {
        continue
      } catch {
        unchecked.append(code.text)
      }
    }
    if !unchecked.isEmpty {
      invocation.err(
        "note: could not look up \(unchecked.map(TerminalText.sanitize).joined(separator: ", ")) now: "
          + "imported unchecked ('rates portfolio' names a coin no source knows)")
    }
    return (lines, unknown)
  }

  /// The file mapped, or the one line that refuses it (`FILE: line 1: …`).
  static func readExchangeFile(_ path: String, _ request: ExchangeImportRequest, now: Date) throws
    -> Result<ImportedFile, ImportRefusal>
  {
    let name = path == "-" ? "standard input" : path
    let data = try readImport(path)
    guard let text = String(data: data, encoding: .utf8) else {
      return .failure(ImportRefusal(message: "\(name): the file is not UTF-8 text"))
    }
    let fileName = String(path.split(separator: "/").last ?? Substring(path))
    do {
      let plan = try ExchangeImport.read(
        text, fileName: fileName, format: request.exchange, recordedAt: now)
      return .success(ImportedFile(path: name, plan: plan))
    } catch {
      return .failure(ImportRefusal(message: "\(name): \(error.message)\(Self.advice(error))"))
    }
  }

  /// What to type after a refusal that a layout choice answers (RateCore names no option).
  static func advice(_ error: ExchangeImport.Failure) -> String {
    switch error {
    case .unknownLayout: return " (see --from)"
    case .otherExchange(_, let found, _): return ": use --from \(found.format.rawValue) (or --from auto)"
    default: return ""
    }
  }

  /// `FILE: line 7: why` for each unmappable row (the first ten, then how many more).
  static func describe(_ problems: [ExchangeImport.Problem], in path: String, skipped: Bool) -> String {
    let prefix = skipped ? "warning: skipped " : ""
    var lines = problems.prefix(10).map { "\(prefix)\(path): line \($0.line): \($0.reason)" }
    if problems.count > 10 {
      lines.append("\(prefix)\(path): and \(problems.count - 10) more rows that cannot be mapped")
    }
    return lines.joined(separator: "\n")
  }

  /// `Imported 5 entries as #4 to #8 (2 already in the ledger).` and what each file held.
  static func summary(added: [LedgerEntry], present: Int, files: [ImportedFile], dryRun: Bool)
    -> String
  {
    var lines: [String] = []
    if dryRun {
      lines.append("Would import \(count(added.count)); nothing was written (--dry-run).")
      lines += added.map(Self.line)
    } else if let first = added.first, let last = added.last {
      let ids = first.id == last.id ? "#\(first.id)" : "#\(first.id) to #\(last.id)"
      lines.append("Imported \(count(added.count)) as \(ids).")
    } else {
      lines.append(
        present > 0
          ? "Every entry of the files is already in the ledger; nothing was imported."
          : "The files hold no entries; nothing was imported.")
    }
    for file in files {
      func rows(_ number: Int) -> String { number == 1 ? "1 row" : "\(number) rows" }
      var parts = [count(file.plan.entries.count)]
      if file.plan.ownMoves > 0 {
        parts.append(
          file.plan.ownMoves == 1 ? "1 move between own accounts" : "\(file.plan.ownMoves) moves between own accounts")
      }
      if !file.plan.skipped.isEmpty { parts.append("\(rows(file.plan.skipped.count)) left out (pending or failed)") }
      if !file.plan.unmappable.isEmpty { parts.append("\(rows(file.plan.unmappable.count)) skipped") }
      lines.append("\(file.path) (\(file.plan.layout.name)): " + parts.joined(separator: ", "))
    }
    return lines.joined(separator: "\n")
  }

  static func count(_ number: Int) -> String { number == 1 ? "1 entry" : "\(number) entries" }

  /// One entry as `--dry-run` lists it: `2022-02-24  sell 693 EUR for 54.00387298 DOT  kraken:…`.
  static func line(_ entry: LedgerEntry) -> String {
    let amount = DecimalText.shortest(entry.amount) ?? ""
    let what: String
    if let transfer = entry.transfer {
      what = "\(entry.role?.rawValue ?? transfer.rawValue) \(amount) \(entry.currency)"
    } else {
      what =
        "\(entry.side.rawValue) \(amount) \(entry.currency) for "
        + "\(DecimalText.shortest(entry.counterAmount) ?? "") \(entry.counterCurrency)"
    }
    return "  \(entry.date)  \(what)  \(TerminalText.sanitize(entry.importID ?? ""))"
  }
}

/// `ledger import --from <exchange> --json`.
struct LedgerImportDocument: Encodable {
  /// One file's reading.
  struct File: Encodable {
    struct Row: Encodable {
      var line: Int
      var reason: String
    }
    var path: String
    var format: String
    var layout: String
    var entries: Int
    var ownMoves: Int
    var leftOut: [Row]
    var skipped: [Row]

    init(_ file: LedgerCommand.ImportedFile) {
      path = file.path
      format = file.plan.layout.format.rawValue
      layout = file.plan.layout.name
      entries = file.plan.entries.count
      ownMoves = file.plan.ownMoves
      leftOut = file.plan.skipped.map { Row(line: $0.line, reason: $0.reason) }
      skipped = file.plan.unmappable.map { Row(line: $0.line, reason: $0.reason) }
    }
  }

  var source = RateSource.ledger
  var added: [LedgerEntryJSON]
  var unchanged: [LedgerEntryJSON]
  var dryRun: Bool
  var files: [File]
  var fetchedAt: Date
  var stale = false
}
