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

/// Data files that are FIFOs, shared through symbolic links, or written by a newer `rates`.
@Suite struct DataFileHostileTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  func makeDirectory() throws -> URL {
    let directory = try scratch.folder().appendingPathComponent("rates", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  func names(in directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
  }

  // MARK: - FIFOs

  @Test func aFIFOInPlaceOfTheFileIsRefusedWithoutBlocking() throws {
    let url = try makeDirectory().appendingPathComponent("favorites.json")
    try HostileFiles.makeFIFO(at: url)
    let file = DataFile(url: url, key: "favorites", empty: [String]())
    let expected = DataFileError.unreadable(
      path: url.path, reason: "not a regular file (it is a FIFO (named pipe))")
    for operation in ["read", "update", "readWithoutLock"] {
      let outcome = HostileFiles.finishes(within: 5, unblocking: [url]) {
        switch operation {
        case "read": _ = try file.read()
        case "update": try file.update { $0.append("BTC") }
        default: _ = try file.readWithoutLock()
        }
      }
      guard let outcome else {
        Issue.record("\(operation) blocked on a FIFO")
        continue
      }
      #expect(throws: expected) { try outcome.get() }
    }
    var info = stat()
    expect(lstat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
  }

  /// A (sparse) file larger than any data file is refused before it is read: its size was
  /// allocated at once, and a terabyte made every command die failing to allocate it.
  @Test func aFileLargerThanTheLimitIsRefusedUnread() throws {
    let url = try makeDirectory().appendingPathComponent("config.json")
    expect(FileManager.default.createFile(atPath: url.path, contents: nil))
    let size = DataFile<[String: String]>.maximumBytes + 1
    expectEqual(truncate(url.path, off_t(size)), 0)
    let expected = DataFileError.unreadable(
      path: url.path,
      reason: "it is \(size) bytes, more than the 1024 MiB rates reads from a data file (it "
        + "never writes one that large); move it aside")
    #expect(throws: expected) { try StringsDataFile.read(url: url, key: "config") }
    #expect(throws: expected) { try DataFile(url: url, key: "pairs", empty: [String]()).read() }
  }

  @Test func aFIFOInPlaceOfTheLockFileIsRefusedWithoutBlocking() throws {
    let directory = try makeDirectory()
    let url = directory.appendingPathComponent("pairs.json")
    let lock = directory.appendingPathComponent(".pairs.json.lock")
    try HostileFiles.makeFIFO(at: lock)
    let file = DataFile(url: url, key: "pairs", empty: [String]())
    let outcome = HostileFiles.finishes(within: 5, unblocking: [lock]) {
      try file.update { $0.append("GBP-USD") }
    }
    let error = #expect(throws: AtomicFile.WriteError.self) { try require(outcome).get() }
    expectEqual(error?.reason.contains("FIFO"), true)
    expect(!FileManager.default.fileExists(atPath: url.path))
  }

  // MARK: - Symbolic links

  @Test func twoLinksToOneFileShareOneLockAndLoseNothing() async throws {
    let real = try makeDirectory().appendingPathComponent("favorites.json")
    try Data("{\"favorites\": [], \"version\": 1}\n".utf8).write(to: real)
    let links = try (0..<2).map { _ -> URL in
      let link = try makeDirectory().appendingPathComponent("favorites.json")
      try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
      return link
    }
    let writers = 24
    let failures = await runTogether(writers) { index in
      let file = DataFile(url: links[index % 2], key: "favorites", empty: [String]())
      try file.update { $0.append("COIN-\(index)") }
    }
    expectEqual(failures, [])
    let stored = try DataFile(url: real, key: "favorites", empty: [String]()).read()
    expectEqual(Set(stored), Set((0..<writers).map { "COIN-\($0)" }))
    expectEqual(stored.count, writers)
    // The lock sits beside the target; nothing is left beside the links.
    expectEqual(
      try names(in: real.deletingLastPathComponent()), [".favorites.json.lock", "favorites.json"])
    for link in links {
      expectEqual(try names(in: link.deletingLastPathComponent()), ["favorites.json"])
      expectEqual(
        DataFile(url: link, key: "favorites", empty: [String]()).lockURL.path,
        real.deletingLastPathComponent().appendingPathComponent(".favorites.json.lock").path)
    }
  }

  @Test func onlyTemporaryFilesOfDeadWritersAreRemoved() throws {
    let directory = try makeDirectory()
    let url = directory.appendingPathComponent("favorites.json")
    let dead = ".favorites.json.\(HostileFiles.deadPID).17.tmp"
    let live = ".favorites.json.\(getppid()).18.tmp"
    let mine = ".favorites.json.\(getpid()).19.tmp"
    let otherFile = ".favorites.json.bak.\(HostileFiles.deadPID).20.tmp"
    let notOurs = ".favorites.json.\(HostileFiles.deadPID).tmp"
    for name in [dead, live, mine, otherFile, notOurs] {
      try Data("{".utf8).write(to: directory.appendingPathComponent(name))
    }
    try DataFile(url: url, key: "favorites", empty: [String]()).update { $0.append("BTC") }
    expectEqual(
      try names(in: directory),
      [live, mine, otherFile, notOurs, ".favorites.json.lock", "favorites.json"].sorted())
  }

  // MARK: - Members a newer rates wrote

  @Test func unknownMembersSurviveARewrite() throws {
    let url = try makeDirectory().appendingPathComponent("favorites.json")
    let original = """
      {
        "favorites": [
          {"addedAt": "2024-06-10T06:13:20Z", "id": "bitcoin", "symbol": "BTC",
           "alert": {"above": 100000, "channels": ["mail", null, true]}, "tags": ["hodl"]}
        ],
        "sync": {"device": "laptop", "revision": 12},
        "version": 1
      }
      """
    try Data(original.utf8).write(to: url)
    let file = DataFile(url: url, key: "favorites", empty: [FavoriteCoin]())
    try file.update { favorites in
      favorites.append(FavoriteCoin(id: "ethereum", symbol: "ETH", name: nil, addedAt: fixedNow))
    }
    let object = try require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    let sync = try require(object["sync"] as? [String: Any])
    expectEqual(sync["device"] as? String, "laptop")
    expectEqual(sync["revision"] as? Int, 12)
    let favorites = try require(object["favorites"] as? [[String: Any]])
    expectEqual(favorites.count, 2)
    let alert = try require(favorites[0]["alert"] as? [String: Any])
    expectEqual(alert["above"] as? Int, 100_000)
    expectEqual((alert["channels"] as? [Any])?.count, 3)
    expectEqual(favorites[0]["tags"] as? [String], ["hodl"])
    expectEqual(favorites[1].keys.sorted(), ["addedAt", "id", "symbol"])
    // Removing the item removes its members; the document's own stay.
    try file.update { $0.removeAll { $0.id == "bitcoin" } }
    let after = try String(contentsOf: url, encoding: .utf8)
    expect(!after.contains("alert"))
    expectContains(after, "\"revision\" : 12")
  }

  @Test func unknownMembersOfPairsAndConfigSurviveARewrite() throws {
    let directory = try makeDirectory()
    let pairsURL = directory.appendingPathComponent("pairs.json")
    try Data(
      """
      {"pairs": [{"addedAt": "2024-06-10T06:13:20Z", "base": "GBP", "quote": "USD",
        "precision": 4}], "version": 1, "view": "compact"}
      """.utf8
    ).write(to: pairsURL)
    let pairs = UserData(directory: directory).pairs
    try pairs.update { $0.append(ConfiguredPair(base: "EUR", quote: "JPY", addedAt: fixedNow)) }
    let stored = try pairs.read()
    expectEqual(stored.map(\.name), ["GBP-USD", "EUR-JPY"])
    expectEqual(stored[0].unknownMembers, ["precision": .integer(4)])
    let text = try String(contentsOf: pairsURL, encoding: .utf8)
    expectContains(text, "\"view\" : \"compact\"")

    let paths = RatesPaths(config: directory, data: directory, cache: directory)
    let configURL = directory.appendingPathComponent("config.json")
    try Data(
      #"{"settings": {"currency": "EUR", "theme": "dark"}, "profiles": [1.5], "version": 1}"#
        .utf8
    ).write(to: configURL)
    try ConfigFile.file(paths).update { $0["timeout"] = "20" }
    let config = try require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: configURL)) as? [String: Any])
    expectEqual(config["profiles"] as? [Double], [1.5])
    expectEqual(
      config["settings"] as? [String: String],
      ["currency": "EUR", "theme": "dark", "timeout": "20"])
  }

}
