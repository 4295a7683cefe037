import RateCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `rates cache [info|clear|verify]`: what the cache holds, emptying it (or one pair), and
/// checking the day store against the provider.
///
/// The actions are nested types that declare, parse and run themselves; their work is in the
/// static functions below.
struct CacheCommand: CommandDeclaration {
  static let name = "cache"
  static let abstract = "show what the cache holds, clear it, or verify its stored days"
  static let subcommands: [any CommandDeclaration.Type] = [Info.self, Clear.self, Verify.self]
  static let defaultSubcommand: (any CommandDeclaration.Type)? = Info.self
  static let discussion = """
    The cache is $XDG_CACHE_HOME/rates (~/.cache/rates), one JSON file per entry. It is safe
    to clear: the next commands fetch anew. 'clear' refuses a cache path that resolves to
    your home directory, to /, or to a directory holding your data or configuration, and a
    cache directory that is a symbolic link. 'clear PAIR' removes one pair's stored days and
    cached entries only. 'verify' asks the provider again for the stored days.
    """
  static let examples = [
    "rates cache", "rates cache clear --json", "rates cache clear EUR-USD",
    "rates cache verify EUR-USD --fix",
  ]

  /// `rates cache [info]`.
  struct Info: RatesCommand {
    static let name = "info"
    static let abstract =
      "the cache's location, size, entries by provider and kind, and the oldest and newest "
      + "fetch"
    static let examples = ["rates cache", "rates cache info --json"]

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {}

    func run(_ invocation: Invocation) async throws -> ExitCode {
      let inventory = CacheInventory.scan(invocation.settings.paths.cache)
      let now = invocation.context.now()
      try invocation.write(
        CommandOutput(document: Document(inventory)) { CacheCommand.render(inventory, now: now, $0) })
      return .success
    }
  }

  /// `rates cache clear [PAIR]`.
  struct Clear: RatesCommand {
    static let name = "clear"
    static let abstract =
      "remove the cache's own entries (or one pair's) and say what was removed; files it does "
      + "not recognise as its entries are kept and listed, and your configuration, coins, "
      + "favorites, pairs and ledger are never touched"
    struct Declared: Declarations {
      let pairArgument = Argument.optional(
        "PAIR",
        help: "one pair only, as 'rates cache' lists it (EUR-USD, BITCOIN-EUR; EUR/USD too): its "
          + "stored days and cached entries, with every provider", completion: .local([.pairs]))
    }
    static let examples = ["rates cache clear --json", "rates cache clear bitcoin-eur"]

    let pair: String?

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      pair = try CacheCommand.pair(&scanner, Self.declared.pairArgument)
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try CacheCommand.clear(pair, invocation)
    }
  }

  /// The optional PAIR of `clear` and `verify`, declared by `argument`, as the store names it
  /// (`eur-usd`).
  static func pair(_ scanner: inout ArgumentScanner, _ argument: Argument<String?>) throws(UsageError)
    -> String?
  {
    guard let word = try scanner.read(argument) else { return nil }
    // A second word is refused as such before the first is judged (`cache clear EUR USD`).
    if let extra = scanner.elements.lazy.compactMap(\.positionalText).first {
      throw UsageError.unexpectedArgument(extra)
    }
    let name = CacheInventory.pairFileName(word)
    guard name.contains("-") else {
      throw UsageError.invalid(
        "'\(TerminalText.sanitize(word))' is not a pair: write it BASE-QUOTE as 'rates cache' "
          + "lists it (EUR-USD, BITCOIN-EUR)")
    }
    return name
  }

  /// `--json` for both actions: what the cache holds (info) or held (clear).
  struct Document: Encodable {
    var path: String
    var exists: Bool
    var bytes: Int
    var entries: Int
    var unreadable: Int
    @NullEncoded var oldest: Date?
    @NullEncoded var newest: Date?
    var groups: [CacheInventory.Group]
    /// The day store: one entry per pair with its first and last day.
    var days: [CacheInventory.DayFile]
    var cleared: Bool?
    var removedFiles: Int?
    var removedBytes: Int?
    var kept: [String]?

    init(_ inventory: CacheInventory, cleared: Bool? = nil, report: CacheClearReport? = nil) {
      path = inventory.directory.path
      exists = inventory.exists
      bytes = inventory.bytes
      entries = inventory.entries
      unreadable = inventory.unreadable
      oldest = inventory.oldest
      newest = inventory.newest
      groups = inventory.groups
      days = inventory.days
      self.cleared = cleared
      removedFiles = report.map { $0.removedEntries + $0.removedTemporaryFiles }
      removedBytes = report?.removedBytes
      kept = report?.kept
    }
  }

  /// `cache clear [PAIR]`: removes the pair's entries or every entry, after refusing a
  /// directory that is not only the cache. A pair with nothing cached is already as asked:
  /// a note, exit 0.
  static func clear(_ typed: String?, _ invocation: Invocation) throws -> ExitCode {
    let directory = invocation.settings.paths.cache
    let pair = typed.map { storedName($0, in: directory) }
    try Self.checkClearable(directory, settings: invocation.settings, invocation: invocation)
    let inventory = CacheInventory.scan(directory)
    let report: CacheClearReport
    do {
      report = try CacheInventory.clear(directory, pair: pair)
    } catch let error as CacheClearError {
      guard case .symbolicLink = error else { throw error }
      throw UsageError.invalid(error.readableDescription)
    }
    let document = Document(inventory, cleared: true, report: report)
    if let pair, report.removedEntries == 0 {
      invocation.err(
        "note: nothing is cached for \(pair.uppercased()); 'rates cache' lists the stored pairs")
      try invocation.write(CommandOutput(document: document) { _ in "" })
      return .success
    }
    try invocation.write(
      CommandOutput(document: document) { _ in Self.cleared(report, pair: pair, from: directory) })
    return .success
  }

  /// What `cache clear` removed, per provider and kind, and the files it kept.
  static func cleared(_ report: CacheClearReport, pair: String?, from directory: URL) -> String {
    var lines: [String] = []
    if let pair {
      lines.append(
        "Removed \(pair.uppercased()): \(report.removedEntries) "
          + "\(report.removedEntries == 1 ? "file" : "files")"
          + " (\(CacheInventory.formatBytes(report.removedBytes))) from \(directory.path).")
    } else if report.removedEntries == 0 && report.kept.isEmpty {
      lines.append("The cache at \(directory.path) is already empty.")
    } else {
      let count = report.removedEntries
      lines.append(
        "Removed \(count) cache \(count == 1 ? "entry" : "entries")"
          + " (\(CacheInventory.formatBytes(report.removedBytes))) from \(directory.path).")
      lines += report.groups.map { "  \($0.provider)/\($0.kind): \($0.entries)" }
    }
    if !report.kept.isEmpty {
      lines.append(
        "Kept \(report.kept.count) \(report.kept.count == 1 ? "file" : "files") that "
          + "\(report.kept.count == 1 ? "is" : "are") not cache entries of rates:")
      lines +=
        report.kept.prefix(5).map { "  \(TerminalText.sanitize($0))" }
        + (report.kept.count > 5 ? ["  …"] : [])
    }
    return lines.joined(separator: "\n")
  }

  static func render(_ inventory: CacheInventory, now: Date, _ layout: TextLayout) -> String {
    var lines = ["Cache: \(inventory.directory.path)"]
    guard inventory.exists else {
      lines.append("Empty: nothing has been cached yet.")
      return lines.joined(separator: "\n")
    }
    lines.append(
      "Size: \(CacheInventory.formatBytes(inventory.bytes)) (\(inventory.bytes) bytes) in "
        + "\(inventory.entries) \(inventory.entries == 1 ? "entry" : "entries")"
        + (inventory.unreadable > 0 ? ", \(inventory.unreadable) unreadable" : ""))
    if let oldest = inventory.oldest, let newest = inventory.newest {
      lines.append(
        "Oldest: \(ISO8601.format(oldest)) (\(CacheInventory.formatAge(oldest, now: now)))")
      lines.append(
        "Newest: \(ISO8601.format(newest)) (\(CacheInventory.formatAge(newest, now: now)))")
    }
    if !inventory.groups.isEmpty {
      var table = TextTable(columns: [
        .init("PROVIDER", priority: TextTable.required), .init("KIND", priority: TextTable.required),
        .init("ENTRIES", alignment: .right, priority: 1), .init("SIZE", alignment: .right),
      ])
      for group in inventory.groups {
        table.append([
          group.provider, group.kind, String(group.entries),
          CacheInventory.formatBytes(group.bytes),
        ])
      }
      lines.append("")
      lines.append(contentsOf: layout.render(table))
    }
    lines += renderDays(inventory, layout)
    return lines.joined(separator: "\n")
  }

  /// The day store's pairs: their day range, the days with a value and the bytes.
  static func renderDays(_ inventory: CacheInventory, _ layout: TextLayout) -> [String] {
    guard !inventory.days.isEmpty else { return [] }
    var table = TextTable(columns: [
      .init("PROVIDER", priority: 2), .init("PAIR", priority: TextTable.required),
      .init("FROM", priority: 4), .init("THROUGH", priority: 5),
      .init("VALUES", alignment: .right, priority: 3),
      .init("LEFT OUT", alignment: .right, priority: 0), .init("SIZE", alignment: .right, priority: 1),
    ])
    for file in inventory.days {
      table.append([
        TerminalText.sanitize(file.provider), TerminalText.sanitize(file.pair.uppercased()),
        file.from.description, file.through.description, String(file.values),
        String(file.leftOut), CacheInventory.formatBytes(file.bytes),
      ])
    }
    return ["", "Settled days (kept for good; replaced only by --refresh or 'cache verify --fix'):"]
      + layout.render(table)
  }

  /// `name`, or for a well-known coin's symbol (`btc-eur`) the pair of its id (`bitcoin-eur`)
  /// when only that one is cached: the pair as the cache names it.
  static func storedName(_ name: String, in directory: URL) -> String {
    guard let dash = name.lastIndex(of: "-"),
      let id = CoinResolver.wellKnown[CurrencyCode(name[..<dash]).text]
    else { return name }
    let alias = id + name[dash...]
    var names = Set<String>()
    CacheWalker(root: directory).walk { names.insert($0.pairName) }
    return names.contains(name) || !names.contains(alias) ? name : alias
  }

  /// Refuses to clear a directory that is `/`, the home directory, or holds the user's data or
  /// configuration (when `XDG_CACHE_HOME` points somewhere surprising).
  static func checkClearable(
    _ directory: URL, settings: EnvironmentSettings, invocation: Invocation
  ) throws {
    let cache = resolved(directory.path)
    var forbidden = ["/"]
    if let home = EnvironmentVariable.home.raw(in: invocation.context.environment), !home.isEmpty {
      forbidden.append(resolved(home))
    }
    forbidden.append(resolved(FileManager.default.homeDirectoryForCurrentUser.path))
    if forbidden.contains(cache) {
      throw UsageError.invalid(
        "refusing to clear \(directory.path): it is \(cache == "/" ? "/" : "your home directory")"
          + "; check XDG_CACHE_HOME")
    }
    for (what, path) in [
      ("data", settings.paths.data.path), ("configuration", settings.paths.config.path),
    ] {
      let other = resolved(path)
      if other == cache || other.hasPrefix(cache.hasSuffix("/") ? cache : cache + "/") {
        throw UsageError.invalid(
          "refusing to clear \(directory.path): it holds your \(what) directory \(path)"
            + "; check XDG_CACHE_HOME")
      }
    }
  }

  /// `path` with symbolic links, `.` and `..` resolved, without a trailing slash; the
  /// standardized path when it does not exist.
  static func resolved(_ path: String) -> String {
    var text = URL(fileURLWithPath: path).standardizedFileURL.path
    if let real = realpath(path, nil) {
      text = String(cString: real)
      free(real)
    }
    while text.count > 1 && text.hasSuffix("/") { text.removeLast() }
    return text.isEmpty ? "/" : text
  }
}
