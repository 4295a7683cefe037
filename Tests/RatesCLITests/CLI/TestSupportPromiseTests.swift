import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `Tests/README.md` promises of the shared support: a test's folders go with it, and
/// waiting is on events, not on the wall clock.
@Suite struct TestSupportPromiseTests {
  static func exists(_ url: URL) -> Bool {
    FileManager.default.fileExists(atPath: url.path)
  }

  // MARK: - Temporary folders

  @Test func aHarnessHomeGoesWithTheHarness() async throws {
    var home: URL?
    do {
      let cli = try CLIHarness()
      home = cli.home
      let result = await cli.run(["convert", "100", "EUR", "USD", "--offline"])
      expectEqual(result.status, 0, "\(result.stderr)")
      expect(Self.exists(cli.home))
    }
    let gone = try require(home)
    expect(!Self.exists(gone))
  }

  @Test func aRunnerHomeGoesWithTheRunner() throws {
    var home: URL?
    do {
      let runner = try BinaryRunner(server: nil)
      home = runner.home
      expect(Self.exists(runner.home))
    }
    expect(!Self.exists(try require(home)))
  }

  @Test func aScopedFolderIsRemovedEvenWhenATestTookItsPermissionsAway() throws {
    let inside = try withTemporaryDirectory { url -> URL in
      let locked = url.appendingPathComponent("locked/deeper", isDirectory: true)
      try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
      try Data("x".utf8).write(to: locked.appendingPathComponent("file"))
      chmod(locked.path, 0o000)
      chmod(locked.deletingLastPathComponent().path, 0o500)
      return url
    }
    expect(!Self.exists(inside))
  }

  @Test func everyFolderIsInsideTheProcessFolder() throws {
    let scratch = Scratch()
    let loose = try scratch.folder()
    let scoped = try TemporaryDirectory()
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("rates-tests-\(getpid())").path
    expectEqual(loose.deletingLastPathComponent().path, root)
    expectEqual(scoped.url.deletingLastPathComponent().path, root)
  }

  @Test func aScratchsFoldersGoWithIt() throws {
    var made: [URL] = []
    do {
      let scratch = Scratch()
      made = [try scratch.folder(), try scratch.folder()]
      try Data("x".utf8).write(to: made[0].appendingPathComponent("file"))
      expect(made.allSatisfy(Self.exists))
    }
    expectEqual(made.count, 2)
    expect(!made.contains(where: Self.exists))
  }

  // MARK: - Waiting

  @Test func eventuallyWakesOnTheChangeItWaitsFor() async {
    let log = Recorder<Int>()
    let writer = Task {
      for value in 1...3 { log.append(value) }
    }
    expect(await eventually { log.all == [1, 2, 3] })
    await writer.value
  }

  @Test func eventuallyGivesUpAfterItsHangGuard() async {
    let never = Recorder<Int>()
    expectEqual(await eventually(timeout: 0.05) { never.count > 0 }, false)
  }

  /// The two that read the process folder's owners, one at a time (the second makes a
  /// folder without one on purpose).
  @Suite(.serialized) struct Owners {
    /// The harness objects tests use most, each dropped at the end of its scope: not one of
    /// their folders stays, and the process folder holds no folder without a live owner.
    @Test func theHelpersLeaveNoFolderBehind() async throws {
      var made: [URL] = []
      do {
        let cli = try CLIHarness()
        _ = await cli.run(["convert", "1", "EUR", "USD", "--offline"])
        let scratch = Scratch()
        made = [cli.home, try scratch.folder()]
        made.append(try withTemporaryDirectory { $0 })
        made.append(try await withTemporaryDirectory { url async in url })
        _ = try await Shells.run("/bin/sh", ["-c", "true"], environment: [:])
        expect(made.dropLast(2).allSatisfy(TestSupportPromiseTests.exists))
      }
      expectEqual(made.count, 4)
      expectEqual(made.filter(TestSupportPromiseTests.exists), [])
      expectEqual(TemporaryDirectory.unowned(), [])
    }

    /// ``TemporaryDirectory/unowned()`` sees a folder made behind the harness's back.
    @Test func aFolderWithoutAnOwnerIsNoticed() throws {
      let stray = try TemporaryDirectory().url.deletingLastPathComponent()
        .appendingPathComponent("stray-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: stray, withIntermediateDirectories: false)
      expect(TemporaryDirectory.unowned().contains(stray.lastPathComponent))
      try FileManager.default.removeItem(at: stray)
      expect(!TemporaryDirectory.unowned().contains(stray.lastPathComponent))
    }
  }
}
