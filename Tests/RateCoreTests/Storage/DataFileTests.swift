import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite struct DataFileTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  struct Refused: Error {}

  /// A favorites file in a fresh temporary directory's `rates/` subdirectory (not yet created).
  func makeFile(
    lockTimeout: Duration = .seconds(10), lockClock: FileLock.Clock = .live
  ) throws -> DataFile<[String]> {
    let url = try scratch.folder()
      .appendingPathComponent("rates", isDirectory: true)
      .appendingPathComponent("favorites.json")
    return DataFile(
      url: url, key: "favorites", lockTimeout: lockTimeout, lockClock: lockClock,
      makeEmpty: { [] })
  }

  /// A lock clock that never waits: each pause is recorded and moves its time on.
  func virtualClock(_ pauses: Recorder<Duration>) -> FileLock.Clock {
    FileLock.Clock(
      now: { pauses.all.reduce(.zero, +) },
      pause: { pauses.append($0) })
  }

  func attributes(_ url: URL) throws -> [FileAttributeKey: Any] {
    try FileManager.default.attributesOfItem(atPath: url.path)
  }

  func permissions(_ url: URL) throws -> Int {
    (try attributes(url)[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }

  func names(in directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
  }

  func write(_ text: String, to file: DataFile<[String]>, mode: Int = 0o600) throws {
    try write(Data(text.utf8), to: file, mode: mode)
  }

  func write(_ data: Data, to file: DataFile<[String]>, mode: Int = 0o600) throws {
    try FileManager.default.createDirectory(
      at: file.url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: file.url)
    try FileManager.default.setAttributes(
      [.posixPermissions: NSNumber(value: mode)], ofItemAtPath: file.url.path)
  }

  // MARK: - Reading and writing

  @Test func roundTrip() throws {
    let file = try makeFile()
    let count = try file.update { favorites -> Int in
      favorites.append("BTC-EUR")
      favorites.append("ETH-USD")
      return favorites.count
    }
    expectEqual(count, 2)
    expectEqual(try file.read(), ["BTC-EUR", "ETH-USD"])
    let text = try String(contentsOf: file.url, encoding: .utf8)
    expect(text.hasSuffix("}\n"))
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    expectEqual(object?["version"] as? Int, 1)
    expectEqual(object?["favorites"] as? [String], ["BTC-EUR", "ETH-USD"])
    expectEqual(object?.count, 2)
    expectContains(text, "\n  \"favorites\"")  // pretty-printed
    // A second handle (another process, in effect) sees the same value.
    let again = DataFile(url: file.url, key: "favorites", empty: [String]())
    expectEqual(try again.read(), ["BTC-EUR", "ETH-USD"])
  }

  @Test func missingFileReadsAsEmptyAndCreatesNothing() throws {
    let file = try makeFile()
    expectEqual(try file.read(), [])
    expect(!FileManager.default.fileExists(atPath: file.url.deletingLastPathComponent().path))
  }

  @Test func filesAreMode0600InA0700Directory() throws {
    let file = try makeFile()
    try file.update { $0.append("BTC-EUR") }
    expectEqual(try permissions(file.url), 0o600)
    expectEqual(try permissions(file.lockURL), 0o600)
    expectEqual(try permissions(file.url.deletingLastPathComponent()), 0o700)
  }

  @Test func broaderPermissionsAreTightenedOnTheNextWrite() throws {
    let file = try makeFile()
    try write("{\"favorites\": [\"BTC-EUR\"], \"version\": 1}\n", to: file, mode: 0o644)
    expectEqual(try permissions(file.url), 0o644)
    try file.update { $0.append("ETH-EUR") }
    expectEqual(try permissions(file.url), 0o600)
    expectEqual(try file.read(), ["BTC-EUR", "ETH-EUR"])
  }

  @Test func unchangedValueWritesNothing() throws {
    let file = try makeFile()
    // Hand-formatted: a rewrite would change the bytes.
    let original = "{ \"version\": 1, \"favorites\": [\"BTC-EUR\"] }"
    try write(original, to: file)
    // An old modification time: a rewrite, however soon, would set it to now.
    let old = Date(timeIntervalSince1970: 1_000_000_000)
    try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: file.url.path)
    let before = try attributes(file.url)
    expectEqual(before[.modificationDate] as? Date, old)
    let count = try file.update { favorites -> Int in
      favorites.removeAll { $0 == "XRP-EUR" }  // absent: no change
      return favorites.count
    }
    expectEqual(count, 1)
    let after = try attributes(file.url)
    expectEqual(after[.systemFileNumber] as? NSNumber, before[.systemFileNumber] as? NSNumber)
    expectEqual(after[.modificationDate] as? Date, before[.modificationDate] as? Date)
    expectEqual(try String(contentsOf: file.url, encoding: .utf8), original)
  }

  @Test func unchangedEmptyValueCreatesNoFile() throws {
    let file = try makeFile()
    try file.update { _ in }
    expect(!FileManager.default.fileExists(atPath: file.url.path))
  }

  @Test func throwingTransformWritesNothing() throws {
    let file = try makeFile()
    #expect(throws: Refused.self) {
      try file.update { favorites in
        favorites.append("BTC-EUR")
        throw Refused()
      }
    }
    expect(!FileManager.default.fileExists(atPath: file.url.path))

    try file.update { $0 = ["ETH-EUR"] }
    let bytes = try Data(contentsOf: file.url)
    #expect(throws: Refused.self) {
      try file.update { favorites in
        favorites = []
        throw Refused()
      }
    }
    expectEqual(try Data(contentsOf: file.url), bytes)
    expectEqual(
      try names(in: file.url.deletingLastPathComponent()),
      [
        ".favorites.json.lock", "favorites.json",
      ])
  }

  // MARK: - Files that are never overwritten

  static let corruptContents: [(String, Data)] = [
    ("truncated JSON", Data("{\"favorites\": [\"BTC-EUR\", \"ETH".utf8)),
    ("wrong shape", Data("{\"favorites\": \"BTC-EUR\", \"version\": 1}".utf8)),
    ("missing value", Data("{\"version\": 1}".utf8)),
    ("a top-level array", Data("[\"BTC-EUR\"]".utf8)),
    ("an empty object", Data("{}".utf8)),
    ("an empty file", Data()),
    ("only whitespace", Data("\n  \n".utf8)),
    ("binary garbage", Data([0xFF, 0xFE, 0x00, 0x01, 0x9C, 0x7B, 0x22, 0x00])),
    ("a version that is not a number", Data("{\"favorites\": [], \"version\": \"1\"}".utf8)),
    ("version zero", Data("{\"favorites\": [], \"version\": 0}".utf8)),
  ]

  @Test(arguments: corruptContents)
  func corruptFileIsReportedAndNeverOverwritten(name: String, contents: Data) throws {
    let file = try makeFile()
    try write(contents, to: file)

    let readError = #expect(throws: DataFileError.self) { try file.read() }
    let updateError = #expect(throws: DataFileError.self) {
      try file.update { $0.append("BTC-EUR") }
    }
    for error in [readError, updateError] {
      guard case .corrupt(let path, let detail) = error else {
        Issue.record("expected .corrupt for \(name), got \(String(describing: error))")
        continue
      }
      expectEqual(path, file.url.path)
      expect(!detail.isEmpty)
    }
    expectEqual(try Data(contentsOf: file.url), contents)
    expectEqual(try permissions(file.url), 0o600)
    expectEqual(
      try names(in: file.url.deletingLastPathComponent()),
      [
        ".favorites.json.lock", "favorites.json",
      ])
  }

  @Test func corruptDetailNamesTheProblem() throws {
    let file = try makeFile()
    try write("", to: file)
    #expect(throws: DataFileError.corrupt(path: file.url.path, detail: "the file is empty")) {
      try file.read()
    }
    try write("{\"version\": 1}", to: file)
    #expect(
      throws: DataFileError.corrupt(
        path: file.url.path, detail: "at top level: missing key 'favorites'")
    ) {
      try file.read()
    }
    try write("{\"favorites\": [\"BTC-EUR\", 7], \"version\": 1}", to: file)
    let error = #expect(throws: DataFileError.self) { try file.read() }
    expectEqual(error.map { "\($0)".contains("favorites[1]") }, true)
  }

  @Test func newerVersionIsReportedAndNeverOverwritten() throws {
    let file = try makeFile()
    let contents = "{\"favorites\": [{\"pair\": \"BTC-EUR\"}], \"version\": 2}\n"
    try write(contents, to: file)
    let expected = DataFileError.unsupportedVersion(path: file.url.path, version: 2, supported: 1)
    #expect(throws: expected) { try file.read() }
    #expect(throws: expected) { try file.update { $0 = [] } }
    expectEqual(try String(contentsOf: file.url, encoding: .utf8), contents)
    expectEqual(expected.errorDescription?.contains("Upgrade rates"), true)
  }

  @Test func directoryInPlaceOfTheFileIsUnreadable() throws {
    let file = try makeFile()
    try FileManager.default.createDirectory(at: file.url, withIntermediateDirectories: true)
    let expected = DataFileError.unreadable(
      path: file.url.path, reason: "not a regular file (it is a directory)")
    #expect(throws: expected) { try file.read() }
    #expect(throws: expected) { try file.update { $0.append("BTC-EUR") } }
  }

  @Test func unreadableFileIsReported() throws {
    guard getuid() != 0 else { return }  // root reads anything
    let file = try makeFile()
    try write("{\"favorites\": [\"BTC-EUR\"], \"version\": 1}\n", to: file, mode: 0o000)
    defer { chmod(file.url.path, 0o600) }
    let error = #expect(throws: DataFileError.self) { try file.update { $0 = [] } }
    guard case .unreadable(let path, _) = error else {
      Issue.record("expected .unreadable, got \(String(describing: error))")
      return
    }
    expectEqual(path, file.url.path)
  }

  @Test func symbolicLinkIsFollowedAndKept() throws {
    let file = try makeFile()
    let elsewhere = try scratch.folder().appendingPathComponent("favorites.json")
    try Data("{\"favorites\": [\"BTC-EUR\"], \"version\": 1}\n".utf8).write(to: elsewhere)
    try FileManager.default.createDirectory(
      at: file.url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(at: file.url, withDestinationURL: elsewhere)
    try file.update { $0.append("ETH-EUR") }
    expectEqual(
      try FileManager.default.destinationOfSymbolicLink(atPath: file.url.path), elsewhere.path)
    expectEqual(try file.read(), ["BTC-EUR", "ETH-EUR"])
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: elsewhere))
    expectEqual((object as? [String: Any])?["favorites"] as? [String], ["BTC-EUR", "ETH-EUR"])
  }

  // MARK: - Concurrency and locking

  @Test func concurrentUpdatesKeepEveryEntry() async throws {
    let file = try makeFile()
    let failures = await runTogether(20) { index in
      try file.update { $0.append("PAIR-\(index)") }
    }
    expectEqual(failures, [])
    let favorites = try file.read()
    expectEqual(favorites.count, 20)
    expectEqual(Set(favorites), Set((0..<20).map { "PAIR-\($0)" }))
    expectEqual(
      try names(in: file.url.deletingLastPathComponent()),
      [
        ".favorites.json.lock", "favorites.json",
      ])
  }

  @Test func staleTemporaryFilesAreRemovedOnTheNextWrite() throws {
    let file = try makeFile()
    let directory = file.url.deletingLastPathComponent()
    try write("{\"favorites\": [], \"version\": 1}\n", to: file)
    let stale = directory.appendingPathComponent(".favorites.json.\(HostileFiles.deadPID).17.tmp")
    let unrelated = directory.appendingPathComponent(".pairs.json.\(HostileFiles.deadPID).17.tmp")
    try Data("{\"fav".utf8).write(to: stale)
    try Data("{\"pai".utf8).write(to: unrelated)
    try file.update { $0.append("BTC-EUR") }
    expectEqual(
      try names(in: directory),
      [
        ".favorites.json.lock", ".pairs.json.\(HostileFiles.deadPID).17.tmp", "favorites.json",
      ])
  }

  /// A held lock makes each call wait its 200 ms (on a virtual clock), then fail; the time
  /// limit only catches a wait that never ends.
  @Test(.timeLimit(.minutes(1))) func heldLockTimesOut() throws {
    let pauses = Recorder<Duration>()
    let file = try makeFile(lockTimeout: .milliseconds(200), lockClock: virtualClock(pauses))
    try file.update { $0.append("BTC-EUR") }
    let bytes = try Data(contentsOf: file.url)

    let fd = open(file.lockURL.path, O_RDWR | O_CLOEXEC)
    expect(fd >= 0)
    defer { close(fd) }
    // Blocking: a process another test spawns at the moment `update` closes its lock
    // holds a copy of that descriptor, and so the lock, until it execs.
    expectEqual(flock(fd, LOCK_EX), 0)

    let expected = DataFileError.lockTimeout(path: file.url.path)
    pauses.removeAll()
    #expect(throws: expected) { try file.update { $0.append("ETH-EUR") } }
    let waited = pauses.all.reduce(.zero, +)
    expect(waited >= .milliseconds(200) && waited < .milliseconds(300), "the writer waited")
    pauses.removeAll()
    #expect(throws: expected) { try file.read() }
    let readerWaited = pauses.all.reduce(.zero, +)
    expect(readerWaited >= .milliseconds(200) && readerWaited < .milliseconds(300))
    expectEqual(try Data(contentsOf: file.url), bytes)

    // A shared lock lets readers in but keeps writers out.
    expectEqual(flock(fd, LOCK_SH), 0)
    expectEqual(try file.read(), ["BTC-EUR"])
    #expect(throws: expected) { try file.update { $0.append("ETH-EUR") } }

    expectEqual(flock(fd, LOCK_UN), 0)
    try file.update { $0.append("ETH-EUR") }
    expectEqual(try file.read(), ["BTC-EUR", "ETH-EUR"])
  }

  /// The lock goes when the operation ends, even while another descriptor of it lives on:
  /// a child another thread forks at that moment holds a copy until it execs, and closing
  /// ours alone would leave the file locked for as long (the next writer then timed out).
  @Test func aReleasedLockIsFreeWhileACopyOfItsDescriptorLives() throws {
    let file = try makeFile()
    try FileManager.default.createDirectory(
      at: file.lockURL.deletingLastPathComponent(), withIntermediateDirectories: true)
    let pauses = Recorder<Duration>()
    let held = try require(
      try FileLock.acquire(
        at: file.lockURL, for: file.url, exclusive: true, timeout: .zero,
        clock: virtualClock(pauses)))
    let copy = dup(held.fd)
    expect(copy >= 0)
    defer { close(copy) }
    held.release()
    let again = try FileLock.acquire(
      at: file.lockURL, for: file.url, exclusive: true, timeout: .zero,
      clock: virtualClock(pauses))
    again?.release()
    expect(again != nil)
    expect(pauses.all.isEmpty)
  }

  // MARK: - Messages

  @Test func messagesNameTheFileAndTheWayOut() {
    let corrupt = DataFileError.corrupt(
      path: "/home/me/.local/share/rates/favorites.json", detail: "the file is empty")
    expectEqual(
      corrupt.errorDescription,
      "/home/me/.local/share/rates/favorites.json is corrupt (the file is empty); it was "
        + "left untouched. Fix it by hand, or move it aside to start empty: "
        + "mv /home/me/.local/share/rates/favorites.json "
        + "/home/me/.local/share/rates/favorites.json.bak")
    let spaced = DataFileError.corrupt(path: "/a b/it's.json", detail: "x")
    expectEqual(
      spaced.errorDescription?.hasSuffix("mv '/a b/it'\\''s.json' '/a b/it'\\''s.json.bak'"),
      true)
    expectEqual(
      DataFileError.unsupportedVersion(path: "/d/f.json", version: 3, supported: 1)
        .errorDescription,
      "/d/f.json was written by a newer rates (format version 3; this rates reads "
        + "version 1); it was left untouched. Upgrade rates to use it.")
    expectEqual(
      DataFileError.lockTimeout(path: "/d/f.json").errorDescription,
      "/d/f.json is locked by another rates command (lock file /d/.f.json.lock); "
        + "nothing was changed. Try again when it has finished.")
    expectEqual(
      DataFileError.unreadable(path: "/d/f.json", reason: "Permission denied").errorDescription,
      "cannot read /d/f.json: Permission denied; nothing was changed.")
  }
}
