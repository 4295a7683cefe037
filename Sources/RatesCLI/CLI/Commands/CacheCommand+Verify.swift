import RateCore

extension CacheCommand {
  /// `rates cache verify [PAIR] [--fix]`.
  struct Verify: RatesCommand {
    static let name = "verify"
    static let abstract =
      "ask again for the stored days, of the source and in the form they were asked, and "
      + "list every day whose stored value differs; --fix replaces them"
    struct Declared: Declarations {
      let pairArgument = Argument.optional(
        "PAIR", help: "one pair, as 'rates cache' lists it (EUR-USD); all pairs by default",
        completion: .local([.pairs]))
      let fix = Option.flag(
        "--fix",
        help: "store the provider's answer for the days that differ and drop stored days not over "
          + "yet (nothing else changes)")
    }
    static let discussion = """
      Days stored from a fallback (Coinbase candles, the ECB) are asked of that source; a value
      differs only by more than the figures' precision. Exit code 0 when every stored day
      agrees (or --fix replaced those that did not), 2 when days differ or are not over yet
      and --fix was not given. A day the provider leaves out is not compared (and said so); a
      day stored as left out that it now answers is listed.
      """
    static let examples = ["rates cache verify", "rates cache verify EUR-USD --fix --json"]

    let pair: String?
    let fixes: Bool

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      fixes = try scanner.read(Self.declared.fix)
      pair = try CacheCommand.pair(&scanner, Self.declared.pairArgument)
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try await CacheCommand.verify(
        pair: pair.map { CacheCommand.storedName($0, in: invocation.settings.paths.cache) }, fix: fixes,
        invocation: invocation)
    }
  }

  /// `--json` of `cache verify`.
  struct VerifyDocument: Encodable {
    struct Difference: Encodable {
      var date: Day
      @NullEncoded var storedRate: Double?
      var storedLeftOut: Bool
      @NullEncoded var rate: Double?
      @NullEncoded var storedSource: String?
      @NullEncoded var storedFetchedAt: Date?
    }

    struct Pair: Encodable {
      var provider: String
      var pair: String
      var requests: Int
      var askedSources: [String]
      var checked: Int
      var leftOut: Int
      var notCompared: Int
      var notOver: [Day]
      var fixed: Bool
      var differences: [Difference]
    }

    var pairs: [Pair]

    init(_ reports: [RateService.VerifyReport]) {
      pairs = reports.map { report in
        Pair(
          provider: report.provider.rawValue, pair: report.pair, requests: report.requests,
          askedSources: report.askedSources.map(\.rawValue), checked: report.checked, leftOut: report.leftOut,
          notCompared: report.notCompared,
          notOver: report.notOver, fixed: report.fixed,
          differences: report.differences.map {
            Difference(
              date: $0.day, storedRate: $0.stored, storedLeftOut: $0.storedLeftOut, rate: $0.provider,
              storedSource: $0.storedFetch?.provider, storedFetchedAt: $0.storedFetch?.fetchedAt)
          })
      }
    }
  }

  /// Verifies every stored pair (or `pair`) of every provider; a `pair` with no stored days
  /// has nothing to verify: a note, exit 0.
  static func verify(pair: String?, fix: Bool, invocation: Invocation) async throws -> ExitCode {
    if invocation.options.cacheMode == .offline {
      throw UsageError.invalid(
        "'cache verify' asks the provider again for the stored days: run it without --offline")
    }
    let desk = invocation.desk
    var reports: [RateService.VerifyReport] = []
    for provider in Provider.allCases {
      let service = desk.service(provider)
      for stored in service.storedPairs() where pair == nil || stored == pair {
        reports.append(
          try await service.verifyStoredDays(pair: stored, fix: fix, sources: desk.verifySources()))
      }
    }
    if let pair, reports.isEmpty {
      invocation.err(
        "note: no days are stored for \(pair.uppercased()), so none to verify; 'rates cache' "
          + "lists the stored pairs")
      try invocation.write(CommandOutput(document: VerifyDocument(reports)) { _ in "" })
      return .success
    }
    let checked = reports
    try invocation.write(
      CommandOutput(document: VerifyDocument(checked)) { renderVerify(checked, fix: fix, layout: $0) })
    let differ = reports.contains { (!$0.differences.isEmpty || !$0.notOver.isEmpty) && !$0.fixed }
    return differ ? .doctorFailed : .success
  }

  static func renderVerify(_ reports: [RateService.VerifyReport], fix: Bool, layout: TextLayout)
    -> String
  {
    guard !reports.isEmpty else { return "The day store is empty: nothing to verify." }
    var lines: [String] = []
    for report in reports {
      let pair = TerminalText.sanitize(report.pair.uppercased())
      let count = report.differences.count
      let outcome =
        count > 0
        ? "\(count) \(count == 1 ? "differs" : "differ"):"
        : report.checked > 0 ? "all agree." : "none compared."
      lines.append(
        "\(report.provider.rawValue) \(pair): \(report.checked) stored "
          + "\(report.checked == 1 ? "day" : "days") checked in \(report.requests) "
          + "\(report.requests == 1 ? "request" : "requests")\(Self.asked(report)), \(outcome)")
      lines += Self.uncheckedLines(report, pair: pair)
      if report.leftOut > 0 {
        lines.append(
          "\(report.leftOut) stored \(report.leftOut == 1 ? "day is" : "days are") still left out "
            + "by the provider: asked again later, or with --refresh.")
      }
      guard count > 0 else { continue }
      var table = TextTable(columns: [
        .init("DAY", priority: TextTable.required),
        .init("STORED", alignment: .right, priority: TextTable.required),
        .init("PROVIDER", alignment: .right, priority: TextTable.required),
        .init("STORED FROM", priority: 1),
      ])
      for difference in report.differences {
        let (stored, answered) = Self.texts(difference.stored, difference.provider)
        table.append([
          difference.day.description, difference.storedLeftOut ? "left out" : stored, answered,
          Self.provenance(difference.storedFetch),
        ])
      }
      lines += layout.render(table)
      lines.append(
        report.fixed
          ? "Fixed: the provider's answers replace them."
          : "Run 'rates cache verify \(pair) --fix' to replace them.")
    }
    return lines.joined(separator: "\n")
  }

  /// ` to Coinbase Exchange`: the sources asked, when any is not the store's own provider
  /// (days a fallback answered are checked with that fallback); nothing when none is.
  static func asked(_ report: RateService.VerifyReport) -> String {
    guard report.askedSources.contains(where: { $0 != report.provider }) else { return "" }
    return " to " + report.askedSources.map(\.rawValue).joined(separator: " and ")
  }

  /// A stored or answered value, as rates are written everywhere (``RateFormat/rate(_:)``),
  /// or "none".
  static func text(_ value: Double?) -> String {
    value.map(RateFormat.rate) ?? "none"
  }

  /// A stored and an answered value as ``text(_:)`` writes them, with as many more digits as
  /// it takes to tell them apart (``RateFormat/distinct(_:format:)``).
  static func texts(_ stored: Double?, _ answered: Double?) -> (String, String) {
    guard let stored, let answered else { return (text(stored), text(answered)) }
    let both = RateFormat.distinct([stored, answered], format: RateFormat.rate)
    return (both[0], both[1])
  }

  /// The lines on the stored days not compared: left out of the answer, or not over yet.
  static func uncheckedLines(_ report: RateService.VerifyReport, pair: String) -> [String] {
    var lines: [String] = []
    if report.notCompared > 0 {
      lines.append(
        "\(report.notCompared) stored \(report.notCompared == 1 ? "day was" : "days were") not "
          + "compared: the provider's answer left \(report.notCompared == 1 ? "it" : "them") out.")
    }
    if let first = report.notOver.first, let last = report.notOver.last {
      let count = report.notOver.count
      let days = first == last ? "\(first)" : "\(first) to \(last)"
      lines.append(
        "\(count) stored \(count == 1 ? "day is" : "days are") not over yet (\(days)): "
          + (report.fixed ? "dropped." : "run 'rates cache verify \(pair) --fix' to drop them."))
    }
    return lines
  }

  /// Where a stored day came from: `frankfurter 2026-11-20T10:00:00Z`, or unknown for a day
  /// stored before format 2.
  static func provenance(_ fetch: DayStore.Fetch?) -> String {
    guard let fetch else { return "unknown, before v2" }
    return "\(TerminalText.sanitize(fetch.provider)) \(ISO8601.format(fetch.fetchedAt))"
  }
}
