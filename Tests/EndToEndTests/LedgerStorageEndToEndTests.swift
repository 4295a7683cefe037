import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The ledger log through the binary: migration, a corrupt line, and writers killed mid-way.
@Suite struct LedgerStorageEndToEndTests {
  static func ledgerFile(_ rates: BinaryRunner) -> URL {
    rates.home.appendingPathComponent("data/rates/ledger.json")
  }

  /// A sale of `amount` USD for LBP, recorded today.
  static func entry(_ amount: Double) -> LedgerEntry {
    LedgerEntry(
      id: 0, date: Day(containing: Date()), side: .sell, amount: amount, currency: "USD",
      counterAmount: amount * 89_500, counterCurrency: "LBP", counterparty: nil, note: nil,
      recordedAt: Date())
  }

  @Test func aFormat1LedgerIsConvertedOnTheFirstChangeWithABackup() async throws {
    let rates = try BinaryRunner(server: nil)
    let file = Self.ledgerFile(rates)
    let document = DataFile(url: file, key: "ledger", empty: Ledger())
    _ = try document.update { ledger in
      ledger.append(contentsOf: [Self.entry(100), Self.entry(200)])
    }
    let original = try Data(contentsOf: file)
    let list = try await rates.run(["ledger", "list", "--json"])
    expectEqual(list.status, 0, "\(list.stderr)")
    expectEqual(try Data(contentsOf: file), original, "reading never converts")

    let add = try await rates.run(["ledger", "add", "1", "USD", "89500", "LBP", "--buy"])
    expectEqual(add.status, 0, "\(add.stderr)")
    expectContains(add.stdout, "Recorded #3")
    let backup = file.deletingLastPathComponent().appendingPathComponent("ledger.json.v1.bak")
    expectContains(add.stderr, "note: converted \(file.path)")
    expectContains(add.stderr, backup.path)
    expectEqual(try Data(contentsOf: backup), original)
    let after = try await rates.run(["ledger", "list", "--json"])
    expectEqual((try after.json()["entries"] as? [[String: Any]])?.count, 3)
  }

  @Test func aCorruptLineStopsEveryCommandWithItsNumber() async throws {
    let rates = try BinaryRunner(server: nil)
    for amount in ["1", "2", "3"] {
      let add = try await rates.run(["ledger", "add", amount, "USD", "89500", "LBP", "--sell"])
      expectEqual(add.status, 0, "\(add.stderr)")
    }
    let file = Self.ledgerFile(rates)
    var lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(
      String.init)
    lines[2] = String(lines[2].prefix(30))
    let corrupt = Data((lines.joined(separator: "\n") + "\n").utf8)
    try corrupt.write(to: file)
    for arguments in [
      ["ledger", "list"], ["ledger", "remove", "1"], ["ledger", "export", "--csv"],
      ["ledger", "list", "--json"],
    ] {
      let result = try await rates.run(arguments)
      expectEqual(result.status, 74, "\(arguments): \(result.stderr)")
      expect(
        result.stderr.contains("\(file.path) line 3 is not a valid record"), "\(result.stderr)")
      expectContains(result.stderr, "Fix or delete line 3")
    }
    expectEqual(try Data(contentsOf: file), corrupt)
  }

  /// Fifty writers at once (adds, removes and imports), every seventh killed with SIGKILL at a
  /// random moment: every change reported as done is in the file, no id is used twice, and the
  /// file still reads.
  @Test func fiftyMixedWritersSomeKilledLoseNothingCommitted() async throws {
    let rates = try BinaryRunner(server: nil)
    let csv = rates.home.appendingPathComponent("seed.csv")
    let header = "date,side,amount,currency,counter_amount,counter_currency\n"
    let today = Day(containing: Date()).description
    let seed = (1...10).map { "\(today),sell,\($0),USD,\($0 * 89_500),LBP\n" }.joined()
    try Data((header + seed).utf8).write(to: csv)
    let seeded = try await rates.run(["ledger", "import", csv.path])
    expectEqual(seeded.status, 0, "\(seeded.stderr)")
    // Each importer its own three exchanges: import skips those already in the ledger.
    func three(_ index: Int) throws -> String {
      let file = rates.home.appendingPathComponent("three-\(index).csv")
      let lines = (0..<3).map { "\(today),buy,\(7000 + index * 10 + $0),EUR,1,LBP\n" }.joined()
      try Data((header + lines).utf8).write(to: file)
      return file.path
    }

    // Real threads, one per writer: the cooperative pool has a thread per core only.
    let results = Recorder<(Int, Int32, String)>()
    for index in 0..<50 {
      let arguments: [String]
      switch index % 10 {
      case 0: arguments = ["ledger", "remove", "\(index / 10 + 1)"]
      case 5: arguments = ["ledger", "import", try three(index)]
      default: arguments = ["ledger", "add", "\(1000 + index)", "USD", "1", "LBP", "--sell"]
      }
      let killMidWrite = index % 7 == 3
      Thread {
        do {
          let (status, output) = try Self.run(rates, arguments, killMidWrite: killMidWrite)
          results.append((index, status, output))
        } catch {
          results.append((index, -1, "\(error)"))
        }
      }.start()
    }
    expect(await eventually { results.count == 50 })
    let outcomes = results.all
    expectEqual(outcomes.count, 50)
    let list = try await rates.run(["ledger", "list", "--json"])
    expectEqual(list.status, 0, "\(list.stderr)")
    let entries = try require(try list.json()["entries"] as? [[String: Any]])
    let ids = entries.compactMap { $0["id"] as? Int }
    expectEqual(Set(ids).count, ids.count, "no id used twice")
    let amounts = Set(entries.compactMap { $0["amount"] as? Double })
    for (index, status, output) in outcomes {
      let killed = index % 7 == 3
      if !killed { expectEqual(status, 0, "writer \(index): \(output)") }
      guard status == 0 else { continue }
      switch index % 10 {
      case 0: expect(!ids.contains(index / 10 + 1), "removed #\(index / 10 + 1) is gone")
      case 5: expectContains(output, "Imported 3 exchanges")
      default: expect(amounts.contains(Double(1000 + index)), "writer \(index)'s add was kept")
      }
    }
  }

  /// Whether process `pid` has a file whose path names the ledger open (`/proc/<pid>/fd`).
  static func holdsLedgerFile(_ pid: pid_t) -> Bool {
    let directory = "/proc/\(pid)/fd"
    let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return descriptors.contains { descriptor in
      let target = try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + descriptor)
      return target?.contains("ledger") == true
    }
  }

  /// Runs the binary, SIGKILLing it when `killMidWrite` as soon as it holds a ledger file open
  /// (its lock, the ledger or the temporary file it writes), not after a time that a loaded
  /// machine would stretch; returns its status (or -9) and its stdout and stderr.
  static func run(_ rates: BinaryRunner, _ arguments: [String], killMidWrite: Bool) throws
    -> (Int32, String)
  {
    let writer = try ChildProcess(
      try BinaryRunner.binary.path, arguments, environment: rates.environment,
      mergingErrors: true)
    if killMidWrite {
      // Kernel state, which sends no event: polled until the writer opens a ledger file.
      _ = pollingKernelStateOnThisThread {
        writer.termination.count > 0 || Self.holdsLedgerFile(writer.pid)
      }
      writer.signal(SIGKILL)
    }
    let ended = writer.waitOnThisThread()
    if case .signalled = ended { return (-9, writer.outputText) }
    return (ended.status, writer.outputText)
  }
}
