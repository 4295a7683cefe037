import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `rates ledger` in process, with a real data file and no network at all. (Concurrent adds
/// from separate processes are in EndToEndTests.)
@Suite struct LedgerCommandTests {
  /// Today in UTC at the harness's fixed time.
  static let today = Day(containing: fixedNow)
  static func daysAgo(_ count: Int) -> String { today.adding(days: -count).description }

  /// Runs `arguments` and requires exit 0.
  static func ok(_ rates: CLIHarness, _ arguments: [String]) async throws
    -> CommandResult
  {
    let result = await rates.run(arguments)
    expectEqual(result.status, 0, "\(arguments): \(result.stderr)")
    return result
  }

  static func ledgerFile(_ rates: CLIHarness) -> URL {
    rates.home.appendingPathComponent("data/rates/ledger.json")
  }

  /// The ledger file's header line and records (format 2: one JSON object per line).
  static func storedLog(_ rates: CLIHarness) throws -> (
    header: [String: Any], records: [[String: Any]]
  ) {
    let text = try String(contentsOf: ledgerFile(rates), encoding: .utf8)
    expect(text.hasSuffix("\n"))
    let objects = try text.split(separator: "\n").map { line in
      try require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    return (try require(objects.first), Array(objects.dropFirst()))
  }

  // MARK: - Add, list, remove

  /// A narrow table drops FOR and AMOUNT before RATE: the footer then names the one unit the
  /// rates are in, so `89,500.00` still says what it counts.
  @Test func aNarrowListOfOnePairNamesTheRatesUnit() async throws {
    let rates = try CLIHarness(width: 40)
    _ = try await Self.ok(rates, ["ledger", "add", "100", "USD", "8950000", "LBP", "--sell"])
    _ = try await Self.ok(rates, ["ledger", "add", "50", "USD", "4500000", "LBP", "--buy"])
    let list = try await Self.ok(rates, ["ledger", "list"])
    expect(!list.stdout.contains("8,950,000"), "FOR is dropped at 40 columns: \(list.stdout)")
    expectContains(list.stdout, "RATE is LBP per USD")
  }

  @Test func addListRemove() async throws {
    let rates = try CLIHarness()
    let empty = try await Self.ok(rates, ["ledger"])
    expectContains(empty.stdout, "No exchanges recorded yet")

    let first = try await Self.ok(
      rates, ["ledger", "add", "100", "USD", "8,950,000", "LBP", "--sell", "--with", "Abu Ali"])
    expectContains(first.stdout, "Recorded #1: sold 100.00 USD for 8,950,000.00 LBP")
    expectContains(first.stdout, "USD/LBP 89,500.00")
    // Recorded the other way round: sold 9e6 LBP for 100 USD, i.e. bought USD at 90,000.
    _ = try await Self.ok(
      rates,
      [
        "ledger", "add", "9e6", "lbp", "100", "usd", "--sell", "--date", Self.daysAgo(1),
        "--note", "cash,\u{1B}[31m \"exact\"",
      ])
    let third = try await Self.ok(
      rates, ["ledger", "add", "10", "EUR", "11", "USD", "--buy", "--with", "abu ali", "--json"])
    let added = try require(try third.json()["added"] as? [[String: Any]])
    expectEqual(added.first?["id"] as? Int, 3)
    expectEqual(added.first?["rate"] as? Double, 1.1)
    expectEqual(try third.json()["version"] as? Int, 2)

    let list = try await Self.ok(rates, ["ledger", "list", "--json"])
    let document = try list.json()
    expectEqual(document["source"] as? String, "ledger")
    expectEqual(document["stale"] as? Bool, false)
    expect(document["fetchedAt"] is String)
    let entries = try require(document["entries"] as? [[String: Any]])
    // Newest first: today's #3 and #1 (by id, descending), then yesterday's #2.
    expectEqual(entries.map { $0["id"] as? Int }, [3, 1, 2])
    expectEqual(entries[2]["note"] as? String, "cash, \"exact\"", "sanitized")
    expectEqual(entries[2]["currency"] as? String, "LBP")
    expectEqual(entries[2]["amount"] as? Double, 9_000_000)
    expectEqual(entries[2]["date"] as? String, Self.daysAgo(1))
    expectEqual(entries[0]["counterparty"] as? String, "abu ali")
    expect(entries[2]["counterparty"] is NSNull)

    // --pair orients every entry: #2 (LBP for USD) is shown as 90,000 LBP per USD.
    let pair = try await Self.ok(rates, ["ledger", "list", "--pair", "USD-LBP", "--json"])
    let paired = try require(try pair.json()["entries"] as? [[String: Any]])
    expectEqual(paired.map { $0["id"] as? Int }, [1, 2])
    expectEqual(paired.map { $0["rate"] as? Double }, [89_500, 90_000])
    let text = try await Self.ok(rates, ["ledger", "--pair", "usd/lbp"])
    expectContains(text.stdout, "90,000.00")
    expectContains(text.stdout, "RATE is LBP per USD")

    // --with is case-insensitive; --with-anyone keeps entries naming someone.
    let named = try await Self.ok(rates, ["ledger", "list", "--with", "ABU ALI", "--json"])
    expectEqual((try named.json()["entries"] as? [[String: Any]])?.count, 2)
    let anyone = try await Self.ok(rates, ["ledger", "--with-anyone", "--json"])
    expectEqual(
      (try anyone.json()["entries"] as? [[String: Any]])?.map { $0["id"] as? Int }, [3, 1])
    let recent = try await Self.ok(rates, ["ledger", "--days", "1", "--json"])
    expectEqual(
      (try recent.json()["entries"] as? [[String: Any]])?.map { $0["id"] as? Int }, [3, 1])

    let remove = try await Self.ok(rates, ["ledger", "remove", "3"])
    expectContains(remove.stdout, "Removed #3: bought 10.00 EUR for 11.00 USD")
    let again = await rates.run(["ledger", "rm", "3"])
    // Issue 34: removing what is already gone is as asked: one note, exit 0.
    expectEqual(again.status, 0)
    expectEqual(again.stderr, "note: #3 is not in your ledger (see 'rates ledger list')\n")
    expect(again.stdout.isEmpty)
    // The id of a removed entry is never handed out again.
    let next = try await Self.ok(rates, ["ledger", "add", "1", "USD", "2", "EUR", "--sell"])
    expectContains(next.stdout, "Recorded #4")
    let stored = try Self.storedLog(rates)
    expectEqual(stored.header["version"] as? Int, 2)
    expectEqual(stored.header["format"] as? String, "rates-ledger")
    expectEqual(stored.records.map { $0["op"] as? String }, ["add", "add", "add", "remove", "add"])
    expectEqual(stored.records[3]["ids"] as? [Int], [3])
    expectEqual(stored.records[4]["id"] as? Int, 4)
  }

  @Test(arguments: [
    (["100", "USD", "8950000", "LBP"], "--sell (you sold"),
    (["100", "USD", "8950000", "LBP", "--sell", "--buy"], "cannot be used together"),
    (["-5", "USD", "8950000", "LBP", "--sell"], "must be more than zero"),
    (["0", "USD", "8950000", "LBP", "--sell"], "must be more than zero"),
    (["abc", "USD", "8950000", "LBP", "--sell"], "not a number"),
    (["1e16", "USD", "8950000", "LBP", "--sell"], "too large"),
    (["inf", "USD", "8950000", "LBP", "--sell"], "not a number"),
    (["1,5", "USD", "8950000", "LBP", "--sell"], "misplaced commas"),
    (["100", "USD", "100", "usd", "--sell"], "both currencies are USD"),
    (["100", "US", "8950000", "LBP", "--sell"], "not a currency code"),
    (["100", "USD", "8950000", "--sell"], "missing argument <currency>"),
    (["100", "USD", "8950000", "LBP", "--sell", "--date", "2999-01-01"], "in the future"),
    (["100", "USD", "8950000", "LBP", "--sell", "--date", "1989-12-31"], "before 1990"),
    (["100", "USD", "8950000", "LBP", "--sell", "--date", "22/11/2026"], "not a date"),
    (
      ["100", "USD", "8950000", "LBP", "--sell", "--note", String(repeating: "n", count: 201)],
      "too long"
    ),
    (["100", "USD", "8950000", "LBP", "--sell", "--csv"], "'--csv' does not apply"),
    (["100", "USD", "8950000", "LBP", "--sell", "extra"], "unexpected argument 'extra'"),
  ])
  func addRefusesWithExit64(arguments: [String], message: String) async throws {
    let rates = try CLIHarness()
    let result = await rates.run(["ledger", "add"] + arguments)
    expectEqual(result.status, 64, "\(arguments): \(result.stderr)")
    expectContains(result.stderr, message, "\(result.stderr)")
    expect(result.stderr.hasPrefix("error: "))
    expect(!FileManager.default.fileExists(atPath: Self.ledgerFile(rates).path))
  }

  @Test(arguments: [
    ["ledger", "frobnicate"], ["ledger", "--with", "x", "--with-anyone"],
    ["ledger", "--pair", "USDLBP"], ["ledger", "--days", "0"], ["ledger", "remove"],
    ["ledger", "remove", "x1"], ["ledger", "rate", "USD"],
    [
      "ledger", "stats", "USD", "LBP",
      "--days", "3651",
    ], ["ledger", "export", "--json"],
    ["ledger", "import"], ["ledger", "list", "--note", "x"],
  ])
  func otherRefusals(arguments: [String]) async throws {
    let rates = try CLIHarness()
    let result = await rates.run(arguments)
    expectEqual(result.status, 64, "\(arguments): \(result.stderr)")
  }

  @Test func helpDescribesEveryAction() async throws {
    let rates = try CLIHarness()
    let help = try await Self.ok(rates, ["ledger", "--help"])
    for word in ["add <AMOUNT>", "--with-anyone", "Examples:", "export --csv", "see 'rates help'"] {
      expectContains(help.stdout, word, "\(word)")
    }
    let main = try await Self.ok(rates, ["--help"])
    expectContains(main.stdout, "ledger")
  }

  // MARK: - Rate and stats

  @Test func rateIsAmountWeightedOverTheLastDays() async throws {
    let rates = try CLIHarness()
    for arguments in [
      // Sells of USD: 100 for 8,950,000 and 300 for 26,940,000 (yesterday).
      ["100", "USD", "8950000", "LBP", "--sell"],
      ["300", "USD", "26940000", "LBP", "--sell", "--date", Self.daysAgo(1)],
      // Buys of USD: 50 for 4,500,000 (two days ago), and 18,040,000 LBP sold for 200 USD.
      ["50", "USD", "4500000", "LBP", "--buy", "--date", Self.daysAgo(2)],
      ["18040000", "LBP", "200", "USD", "--sell"],
      // Three days ago: outside the default window of 3 days.
      ["1", "USD", "1", "LBP", "--sell", "--date", Self.daysAgo(3)],
    ] {
      _ = try await Self.ok(rates, ["ledger", "add"] + arguments)
    }
    let result = try await Self.ok(rates, ["ledger", "rate", "USD", "LBP", "--json"])
    let document = try result.json()
    // sell = 35,890,000 / 400 = 89,725; buy = 22,540,000 / 250 = 90,160;
    // midpoint = (89,725 + 90,160) / 2 = 89,942.5.
    expectEqual(document["sell"] as? Double, 89_725)
    expectEqual(document["sellCount"] as? Int, 2)
    expectEqual(document["buy"] as? Double, 90_160)
    expectEqual(document["buyCount"] as? Int, 2)
    expectEqual(document["midpoint"] as? Double, 89_942.5)
    expectEqual(document["firstDay"] as? String, Self.daysAgo(2))
    expectEqual(document["lastDay"] as? String, Self.daysAgo(0))
    expectEqual(document["source"] as? String, "ledger")
    expectEqual(document["stale"] as? Bool, false)
    expectEqual(document["version"] as? Int, 2)

    let text = try await Self.ok(rates, ["ledger", "rate", "USD-LBP"])
    expectContains(text.stdout, "89,942.50")
    expectContains(text.stdout, "2 exchanges")

    // One day back only: today's sell (89,500) and today's buy (90,200).
    let today = try await Self.ok(rates, ["ledger", "rate", "USD", "LBP", "--days", "1", "--json"])
    expectEqual(try today.json()["midpoint"] as? Double, 89_850)

    // Seen the other way round, the sides swap and the rates invert.
    let inverse = try await Self.ok(rates, ["ledger", "rate", "LBP", "USD", "--json"])
    expectEqual(try inverse.json()["buyCount"] as? Int, 2)
    // buy of LBP = 400 / 35,890,000, a computed rate to 10 significant digits.
    let inverseBuy = try require(try inverse.json()["buy"] as? Double)
    expectEqual(inverseBuy, Figure.ratio(400.0 / 35_890_000))
  }

  @Test func oneSidedAndEmptyWindows() async throws {
    let rates = try CLIHarness()
    let none = await rates.run(["ledger", "rate", "USD", "LBP"])
    expectEqual(none.status, 66, "\(none.stderr)")
    expectContains(none.stderr, "no exchanges between USD and LBP")

    _ = try await Self.ok(
      rates,
      [
        "ledger", "add", "100", "USD", "9000000", "LBP", "--sell", "--date",
        Self.daysAgo(10),
      ])
    let old = await rates.run(["ledger", "rate", "USD", "LBP", "--json"])
    expectEqual(old.status, 66)
    let error = try require(try old.errorJSON()["error"] as? [String: Any])
    expectEqual(error["code"] as? String, "no_data")
    expectEqual(error["exitCode"] as? Int, 66)
    expect(old.stdout.isEmpty)

    let wider = try await Self.ok(rates, ["ledger", "rate", "USD", "LBP", "--days", "11"])
    expectContains(wider.stdout, "sells only")
    expectContains(wider.stdout, "90,000.00")
    let json = try await Self.ok(rates, ["ledger", "rate", "USD", "LBP", "--days", "11", "--json"])
    expect(try json.json()["buy"] is NSNull)
    expectEqual(try json.json()["sides"] as? String, "sell")
    expectEqual(try json.json()["midpoint"] as? Double, 90_000)
  }

  @Test func statsDrawsBothSidesWithTheirFigures() async throws {
    let rates = try CLIHarness()
    for (days, amount) in [(0, "9000000"), (1, "9100000"), (5, "8900000")] {
      _ = try await Self.ok(
        rates,
        ["ledger", "add", "100", "USD", amount, "LBP", "--sell", "--date", Self.daysAgo(days)])
    }
    _ = try await Self.ok(rates, ["ledger", "add", "100", "USD", "9200000", "LBP", "--buy"])
    _ = try await Self.ok(
      rates, ["ledger", "add", "100", "USD", "1", "LBP", "--buy", "--date", Self.daysAgo(45)])

    let result = try await Self.ok(rates, ["ledger", "stats", "USD", "LBP", "--json"])
    let document = try result.json()
    expectEqual(document["days"] as? Int, 30)
    let sell = try require(document["sell"] as? [String: Any])
    let points = try require(sell["points"] as? [[String: Any]])
    expectEqual(points.map { $0["rate"] as? Double }, [89_000, 91_000, 90_000])
    let stats = try require(sell["stats"] as? [String: Any])
    // max 91,000; mean 270,000 / 3 = 90,000; sample sd = sqrt((1e6 + 1e6 + 0) / 2) = 1,000.
    expectEqual(stats["max"] as? Double, 91_000)
    expectEqual(stats["mean"] as? Double, 90_000)
    expectEqual(stats["stddev"] as? Double, 1_000)
    let buy = try require(document["buy"] as? [String: Any])
    expectEqual((buy["points"] as? [[String: Any]])?.count, 1, "45 days ago is outside 30")
    expect((buy["stats"] as? [String: Any])?["stddev"] is NSNull)

    let text = try await Self.ok(rates, ["ledger", "stats", "USD-LBP", "--days", "90"])
    expectContains(text.stdout, "You bought USD (2 days with exchanges)")
    expectContains(text.stdout, "You sold USD (3 days with exchanges)")
    expectContains(text.stdout, "stddev 1,000.00")
    expectContains(text.stdout, "┤")
    for line in text.stdout.split(separator: "\n") {
      expect(TerminalText.displayWidth(String(line)) <= 80, "fits the default width")
    }
    let missing = await rates.run(["ledger", "stats", "EUR", "LBP"])
    expectEqual(missing.status, 66)
  }

  // MARK: - CSV

  @Test func exportImportRoundTrip() async throws {
    let source = try CLIHarness()
    for arguments in [
      [
        "100", "USD", "8950000", "LBP", "--sell", "--with", "Abu \"Ali\", Hamra",
        "--note", "cash, counted twice", "--date", Self.daysAgo(2),
      ],
      ["1500.25", "NGN", "0.00000107", "BTC", "--buy"],
      ["1e15", "ARS", "0.3", "USD", "--buy", "--date", Self.daysAgo(400)],
    ] {
      _ = try await Self.ok(source, ["ledger", "add"] + arguments)
    }
    let export = try await Self.ok(source, ["ledger", "export", "--csv"])
    expect(
      export.stdout.hasPrefix(
        "id,date,side,amount,currency,counter_amount,counter_currency,rate,with,note,role,import_id\r\n"))
    expectContains(export.stdout, "\"Abu \"\"Ali\"\", Hamra\",\"cash, counted twice\",,\r\n")
    let file = source.home.appendingPathComponent("ledger.csv")
    try Data(export.stdout.utf8).write(to: file)

    let target = try CLIHarness()
    _ = try await Self.ok(target, ["ledger", "add", "1", "USD", "2", "EUR", "--sell"])
    let imported = try await Self.ok(target, ["ledger", "import", file.path])
    expectContains(imported.stdout, "Imported 3 exchanges as #2 to #4")

    func entries(_ rates: CLIHarness) async throws -> [[String: Any]] {
      let list = try await Self.ok(rates, ["ledger", "list", "--json"])
      return try require(try list.json()["entries"] as? [[String: Any]])
    }
    let keys = [
      "date", "side", "amount", "currency", "counterAmount", "counterCurrency",
      "counterparty", "note",
    ]
    func comparable(_ entries: [[String: Any]]) -> [String] {
      entries.map { entry in keys.map { "\(entry[$0] ?? "absent")" }.joined(separator: "|") }
    }
    let original = try await entries(source)
    let copied = try await entries(target).filter { $0["id"] as? Int != 1 }
    expectEqual(comparable(copied), comparable(original))
    expectEqual(Set(copied.compactMap { $0["id"] as? Int }), [2, 3, 4])

    // The same file again adds nothing, and says what it skipped (issue 34).
    let twice = try await Self.ok(target, ["ledger", "import", file.path])
    expectEqual(twice.stderr, "note: skipped 3 exchanges already in the ledger\n")
    expectEqual(twice.stdout, "Every exchange of the file is already in the ledger; nothing was imported.\n")
    expectEqual(try await entries(target).count, 4)
  }

  @Test func importWithABadLineImportsNothing() async throws {
    let rates = try CLIHarness()
    _ = try await Self.ok(rates, ["ledger", "add", "1", "USD", "2", "EUR", "--sell"])
    let before = try Data(contentsOf: Self.ledgerFile(rates))
    let file = rates.home.appendingPathComponent("bad.csv")
    let text = """
      id,date,side,amount,currency,counter_amount,counter_currency,rate,with,note
      1,\(Self.daysAgo(1)),sell,100,USD,8950000,LBP,89500,,fine
      2,\(Self.daysAgo(1)),sell,lots,USD,8950000,LBP,89500,,bad amount
      3,\(Self.daysAgo(1)),buy,100,USD,8950000,LBP,89500,,fine too

      """
    try Data(text.utf8).write(to: file)
    let result = await rates.run(["ledger", "import", file.path])
    expectEqual(result.status, 64)
    expectContains(result.stderr, "line 3: the amount 'lots' is not a number")
    expectContains(result.stderr, "nothing was imported")
    expectEqual(try Data(contentsOf: Self.ledgerFile(rates)), before)

    let missing = await rates.run(["ledger", "import", "/nonexistent/ledger.csv"])
    expectEqual(missing.status, 74)
  }

  /// Before: a data error printed the whole usage after it.
  @Test func aBadImportIsOneLineWithoutTheUsage() async throws {
    let rates = try CLIHarness()
    let file = rates.home.appendingPathComponent("bad.csv")
    try Data("date,side,amount,currency,counter_amount,counter_currency\r\n2020-13-01,sell,1,USD,2,EUR\r\n".utf8)
      .write(to: file)
    let result = await rates.run(["ledger", "import", file.path])
    expectEqual(result.status, 64)
    expectEqual(result.stderr.split(separator: "\n").count, 1, "\(result.stderr)")
    expect(!result.stderr.contains("usage:"))
    expect(result.stderr.hasPrefix("error: line 2: "))
  }

  /// Before: `unknown column 'date;side;…'` (or `'sep=;'`) and the whole usage; then, with
  /// a column outside the known list (`Comment`), `unknown column 'Date;Side;…;Comment'`,
  /// and the message quoted the separator (`separated by 'tab'`).
  @Test(arguments: [
    "date;side;amount;currency;counter_amount;counter_currency\r\n2024-01-02;sell;1;USD;2;EUR\r\n",
    "sep=;\r\ndate;side;amount;currency;counter_amount;counter_currency\r\n",
    "\u{FEFF}\"id\";\"date\";\"side\";\"amount\";\"currency\";\"counter_amount\";\"counter_currency\"\n",
    "Date;Side;Amount;Currency;Counter_Amount;Counter_Currency;Comment\n2024-01-02;sell;1,5;USD;2;EUR;x\n",
  ])
  func aSemicolonSeparatedFileIsNamedAsSuch(_ text: String) async throws {
    let rates = try CLIHarness()
    let file = rates.home.appendingPathComponent("semicolons.csv")
    try Data(text.utf8).write(to: file)
    let result = await rates.run(["ledger", "import", file.path])
    expectEqual(result.status, 64)
    expectEqual(
      result.stderr,
      "error: line 1: the file is separated by semicolons (;), as some spreadsheets save "
        + "CSV: save it again as comma-separated CSV, with '.' as the decimal point, and import "
        + "that; nothing was imported\n")
  }

  /// Before: `separated by 'tab'`, and a header with a column outside the known list was
  /// `unknown column 'date\tside\t…'`.
  @Test(arguments: [
    "date\tside\tamount\tcurrency\tcounter_amount\tcounter_currency\tComment\n",
    "sep=\t\ndate\tside\tamount\tcurrency\tcounter_amount\tcounter_currency\n",
  ])
  func aTabSeparatedFileIsNamedAsSuch(_ text: String) async throws {
    let rates = try CLIHarness()
    let file = rates.home.appendingPathComponent("tabs.tsv")
    try Data(text.utf8).write(to: file)
    let result = await rates.run(["ledger", "import", file.path])
    expectEqual(result.status, 64)
    expectEqual(
      result.stderr,
      "error: line 1: the file is separated by tabs, as some spreadsheets save CSV: save "
        + "it again as comma-separated CSV, with '.' as the decimal point, and import that; "
        + "nothing was imported\n")
  }

  /// Before: `unknown column 'sep='`: Excel's `sep=,` first line (a valid CSV file) was read
  /// as the header.
  @Test func anExcelSepCommaLineIsSkipped() async throws {
    let rates = try CLIHarness()
    let file = rates.home.appendingPathComponent("excel.csv")
    let header = "date,side,amount,currency,counter_amount,counter_currency\r\n"
    try Data(("\u{FEFF}sep=,\r\n" + header + "\(Self.daysAgo(1)),sell,100,USD,8950000,LBP\r\n").utf8)
      .write(to: file)
    let result = await rates.run(["ledger", "import", file.path])
    expectEqual(result.status, 0, "\(result.stderr)")
    expectEqual(result.stdout, "Imported 1 exchange as #1.\n")
    let bad = rates.home.appendingPathComponent("excel-bad.csv")
    try Data(("sep=,\r\n" + header + "2020-13-01,sell,1,USD,2,EUR\r\n").utf8).write(to: bad)
    let refused = await rates.run(["ledger", "import", bad.path])
    expect(refused.stderr.hasPrefix("error: line 3: "), "\(refused.stderr)")
  }

  // MARK: - Corruption

  @Test func corruptLedgerIsNeverOverwritten() async throws {
    let rates = try CLIHarness()
    let file = Self.ledgerFile(rates)
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    let garbage = Data(#"{"version":1,"ledger":{"nextID":3,"entries":[{"id":1"#.utf8)
    try garbage.write(to: file)
    let csv = rates.home.appendingPathComponent("one.csv")
    let header = "date,side,amount,currency,counter_amount,counter_currency\n"
    try Data((header + "\(Self.daysAgo(0)),sell,1,USD,2,EUR\n").utf8).write(to: csv)
    for arguments in [
      ["ledger", "add", "1", "USD", "2", "EUR", "--sell"], ["ledger"], ["ledger", "remove", "1"],
      ["ledger", "rate", "USD", "EUR"], ["ledger", "stats", "USD", "EUR"],
      ["ledger", "export", "--csv"], ["ledger", "import", csv.path],
    ] {
      let result = await rates.run(arguments)
      expectEqual(result.status, 74, "\(arguments): \(result.stderr)")
      expectContains(result.stderr, file.path)
      expectContains(result.stderr, "mv ")
    }
    expectEqual(try Data(contentsOf: file), garbage)
  }
}

/// Ledger amounts follow the one number policy: a coin to whole satoshis, a fiat
/// currency to its minor unit (review of issue 15).
@Suite struct LedgerAmountPolicyTests {
  @Test func amountsKeepSatoshisAndMinorUnits() async throws {
    let rates = try CLIHarness()
    let coin = try await LedgerCommandTests.ok(
      rates, ["ledger", "add", "0.00012345", "BTC", "7.56", "EUR", "--sell"])
    expectContains(coin.stdout, "sold 0.00012345 BTC for 7.56 EUR")
    let dinar = try await LedgerCommandTests.ok(
      rates, ["ledger", "add", "1.5", "KWD", "4.88", "USD", "--sell"])
    expectContains(dinar.stdout, "sold 1.500 KWD for 4.88 USD")
    let yen = try await LedgerCommandTests.ok(
      rates, ["ledger", "add", "1000", "JPY", "6.35", "USD", "--sell"])
    expectContains(yen.stdout, "sold 1,000 JPY for 6.35 USD")
    let list = try await LedgerCommandTests.ok(rates, ["ledger", "list", "--no-color"])
    expectContains(list.stdout, "0.00012345 BTC")
    expectContains(list.stdout, "1.500 KWD")
  }
}
