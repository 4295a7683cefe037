import RateCore

/// `rates search <query>`: coins by name or symbol.
struct SearchCommand: RatesCommand {
  static let name = "search"
  static let abstract = "find coins by name or symbol"
  struct Declared: Declarations {
    let queryArgument = Argument.repeating(
      "QUERY", help: "a name, symbol or id, or part of one")
    let limit = Option.integer("--limit", value: "N", in: 1...100, default: 15) {
      "show at most N coins, \($0.rangeAndDefault))"
    }
  }
  static let discussion = """
    Results show the id (what other commands accept besides the symbol), symbol, name and
    market-cap rank, best match first. A symbol several coins share is marked with '*':
    'rates history ETH' takes the highest market cap; name another by its id. Answers are
    cached for 15 minutes.
    """
  static let examples = [
    "rates search ether",
    "rates search usdt --json | jq -r '.results[0].id'",
  ]

  let query: String
  let limit: Int

  init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
    limit = try scanner.read(Self.declared.limit)
    let words = try scanner.read(Self.declared.queryArgument)
    query = words.joined(separator: " ")
    guard query.trimming(.whitespaces).count >= 1, query.count <= 100 else {
      throw UsageError.invalid("the search query is empty or too long")
    }
  }

  struct Document: Encodable {
    struct Result: Encodable {
      var id: String
      var symbol: String
      var name: String
      @NullEncoded var rank: Int?
      var sharedSymbol: Bool
    }
    var query: String
    var source = Provider.coinGecko
    var fetchedAt: Date
    var stale: Bool
    var results: [Result]
  }

  func run(_ invocation: Invocation) async throws -> ExitCode {
    let answer = try await invocation.desk.marketService().search(query)
    invocation.report(answer.staleness)
    var symbolCounts: [String: Int] = [:]
    for result in answer.value { symbolCounts[result.symbol, default: 0] += 1 }
    let document = Document(
      query: query, fetchedAt: answer.fetchedAt, stale: answer.staleness != nil,
      results: answer.value.prefix(limit).map {
        .init(
          id: $0.id, symbol: $0.symbol, name: $0.name, rank: $0.marketCapRank,
          sharedSymbol: (symbolCounts[$0.symbol] ?? 0) > 1)
      })
    try invocation.write(CommandOutput(document: document) { Self.text(document, $0) })
    return .success
  }

  /// The results as a table, a shared symbol starred and explained below it.
  static func text(_ document: Document, _ layout: TextLayout) -> String {
    guard !document.results.isEmpty else {
      return "No coins match '\(TerminalText.sanitize(document.query))'."
    }
    var table = TextTable(columns: [
      .init("RANK", alignment: .right, priority: 1), .init("SYMBOL", priority: TextTable.required),
      .init("NAME", fit: .shrinks, priority: 2), .init("ID", priority: 3),
    ])
    for result in document.results {
      table.append([
        result.rank.map(String.init) ?? "—",
        TerminalText.sanitize(result.symbol) + (result.sharedSymbol ? "*" : ""),
        TerminalText.name(result.name, symbol: result.symbol),
        TerminalText.sanitize(result.id),
      ])
    }
    var lines = layout.render(table)
    if document.results.contains(where: \.sharedSymbol) {
      lines.append(layout.style.dim("* symbol shared by several coins: use the id to pick one"))
    }
    return lines.joined(separator: "\n")
  }
}
