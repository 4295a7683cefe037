import RatesExpectations
import RatesTestSupport
import Testing

@testable import RatesCLI

/// This target's golden files, under `Golden/`: the home screen's frames and the `watch`
/// board. A check is `#expect(try GoldenFile.files.problem(with:named:) == nil)` with the
/// problem as its comment (``GoldenFiles/problem(with:named:optional:)``).
enum GoldenFile {
  /// `Tests/ScreenTests/Golden`, found from this file, so no resource bundle is needed.
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Golden", isDirectory: true)

  /// The files there.
  static let files = GoldenFiles(directory: directory)
}

@Suite struct ScreenGoldenTests {
  /// The `watch` board (a terminal screen, so drawn from a fixed state rather than run), at
  /// the widths of the command goldens.
  @Test(arguments: [60, 80, 160])
  func watchBoard(_ width: Int) throws {
    let lines = WatchRenderer.render(WatchRendererTests.state(), width: width, style: Style(enabled: false))
    let problem = try GoldenFile.files.problem(
      with: lines.joined(separator: "\n") + "\n", named: "watch-board.w\(width).txt")
    #expect(problem == nil, Comment(rawValue: problem ?? ""))
  }

  /// Every file directly under `Golden/` is a watch board of one of those widths (`Home/`
  /// holds the home screen's frames, checked by the Home*Golden suites).
  @Test func noStrayGoldenFiles() throws {
    let present = try FileManager.default.contentsOfDirectory(atPath: GoldenFile.directory.path)
      .filter { !$0.hasPrefix(".") && $0 != "Home" }
    expectEqual(Set(present), Set([60, 80, 160].map { "watch-board.w\($0).txt" }))
  }

  /// The home driver's fixture owns its folder and removes it when it goes (as the other
  /// harnesses do: `TestSupportPromiseTests`).
  @Test func theHomeFixtureLeavesNoFolderBehind() throws {
    var folder: URL?
    do {
      let fixture = try HomeDriverFixture()
      folder = fixture.data.deletingLastPathComponent()
      expect(FileManager.default.fileExists(atPath: try require(folder).path))
    }
    expect(!FileManager.default.fileExists(atPath: try require(folder).path))
    expectEqual(TemporaryDirectory.unowned(), [])
  }
}
