import Foundation
import RatesCLIHarness
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
      #expect(result.status == 0, "\(result.stderr)")
      #expect(Self.exists(cli.home))
    }
    let gone = try #require(home)
    #expect(!Self.exists(gone))
  }

  @Test func aRunnerHomeGoesWithTheRunner() throws {
    var home: URL?
    do {
      let runner = try BinaryRunner(server: nil)
      home = runner.home
      #expect(Self.exists(runner.home))
    }
    #expect(!Self.exists(try #require(home)))
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
    #expect(!Self.exists(inside))
  }

  @Test func everyFolderIsInsideTheProcessFolder() throws {
    let loose = try makeTemporaryDirectory()
    let scoped = try TemporaryDirectory()
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("rates-tests-\(getpid())").path
    #expect(loose.deletingLastPathComponent().path == root)
    #expect(scoped.url.deletingLastPathComponent().path == root)
  }

  // MARK: - Waiting

  @Test func eventuallyWakesOnTheChangeItWaitsFor() async {
    let log = Recorder<Int>()
    let writer = Task {
      for value in 1...3 { log.append(value) }
    }
    #expect(await eventually { log.all == [1, 2, 3] })
    await writer.value
  }

  @Test func eventuallyGivesUpAfterItsHangGuard() async {
    let never = Recorder<Int>()
    #expect(await eventually(timeout: 0.05) { never.count > 0 } == false)
  }
}
