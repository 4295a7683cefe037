import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `doctor` and `cache` in process, against the fake APIs at a fixed time.
@Suite struct DoctorAndCacheCommandTests {
  static let proKey = "CG-zyxwvutsrqponmlk9f8e"
  /// The base URLs overridden as in end-to-end runs, so doctor reports them.
  static let overrides = FakeAPIs.environment(base: URL(string: "http://fake-api.test")!)

  @Test func doctorAllOkAgainstTheFakeAPIs() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI(environment: Self.overrides)
    let result = await rates.run(["doctor", "--json"])
    expectEqual(result.status, 0, "\(result.stdout)\(result.stderr)")
    let document = try result.json()
    expectEqual(document["version"] as? Int, 2)
    expectEqual(document["ok"] as? Bool, true)
    let checks = try require(document["checks"] as? [[String: Any]])
    for check in checks {
      expectEqual(check["status"] as? String, "ok", "\(check)")
    }
    let gecko = try require(checks.first { $0["name"] as? String == "coingecko" })
    expect(gecko["latencyMs"] is Int)
    expectEqual(gecko["overridden"] as? Bool, true)
    expect((gecko["detail"] as? String ?? "").contains("RATES_COINGECKO_URL"))
    expectEqual(server.requestCount, 6, "one request to each of the six providers")

    let text = await rates.run(["doctor"])
    expectEqual(text.status, 0)
    expectContains(text.stdout, "All checks passed.")
    expectEqual(text.stdout.split(separator: "\n").filter { $0.hasPrefix("ok ") }.count, checks.count)
  }

  @Test func doctorFailsOnA401AndNeverShowsTheKey() async throws {
    let (keyed, server) = try CLIHarness.withFakeAPI(
      environment: Self.overrides.merging(["COINGECKO_PRO_API_KEY": Self.proKey]) { $1 }
    ) { fake in
      { request in
        request.path.hasSuffix("/ping")
          ? .json(#"{"status":{"error_code":10002,"error_message":"API Key Missing"}}"#, status: 401)
          : fake(request)
      }
    }
    for arguments in [["doctor"], ["doctor", "--json"]] {
      let result = await keyed.run(arguments)
      expectEqual(result.status, 2, "\(result.stdout)\(result.stderr)")
      expect(!result.stdout.contains(Self.proKey) && !result.stderr.contains(Self.proKey))
      expectContains(result.stdout, "CG-…9f8e")
      expectContains(result.stdout, "COINGECKO_PRO_API_KEY")
    }
    let text = await keyed.run(["doctor"])
    let line = try require(
      text.stdout.split(separator: "\n").first { $0.contains("coingecko-key") })
    expect(line.hasPrefix("fail"))

    let keyless = try CLIHarness(server: server, environment: Self.overrides)
    let missing = await keyless.run(["doctor", "--json"])
    expectEqual(missing.status, 2)
    let checks = try require(try missing.json()["checks"] as? [[String: Any]])
    let key = try require(checks.first { $0["name"] as? String == "coingecko-key" })
    expectEqual(key["status"] as? String, "fail")
    expect((key["detail"] as? String ?? "").contains("rates config set api-key"))
  }

  @Test func doctorNamesACorruptFavoritesFile() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let directory = rates.home.appendingPathComponent("data/rates")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let file = directory.appendingPathComponent("favorites.json")
    let garbage = Data(#"{"version":1,"favorites":[{"id":"bitcoin""#.utf8)
    try garbage.write(to: file)
    let result = await rates.run(["doctor"])
    expectEqual(result.status, 2)
    let line = try require(
      result.stdout.split(separator: "\n").first { $0.contains(" favorites ") })
    expect(line.hasPrefix("fail"))
    expectContains(line, file.path)
    expectEqual(try Data(contentsOf: file), garbage, "doctor never touches a data file")
  }

  @Test func cacheInfoAndClearOnATemporaryCache() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let empty = await rates.run(["cache", "--json"])
    expectEqual(empty.status, 0, "\(empty.stderr)")
    expectEqual(try empty.json()["entries"] as? Int, 0)

    let warm = await rates.run(["history", "BTC", "EUR", "--days", "7"])
    expectEqual(warm.status, 0, "\(warm.stderr)")
    let favorites = await rates.run(["favorites", "add", "BTC"])
    expectEqual(favorites.status, 0, "\(favorites.stderr)")

    let info = await rates.run(["cache", "info", "--json"])
    expectEqual(info.status, 0)
    let document = try info.json()
    expectEqual(document["version"] as? Int, 2)
    let entries = try require(document["entries"] as? Int)
    expect(entries >= 2)
    expect((document["bytes"] as? Int ?? 0) > 0)
    expect(document["oldest"] is String && document["newest"] is String)
    let groups = try require(document["groups"] as? [[String: Any]])
    expect(
      groups.contains {
        $0["provider"] as? String == "coingecko" && $0["kind"] as? String == "history"
      })
    expectEqual(groups.reduce(0) { $0 + ($1["entries"] as? Int ?? 0) }, entries)
    let text = await rates.run(["cache"])
    expectContains(text.stdout, "coingecko")
    expect(text.stdout.contains(rates.home.appendingPathComponent("cache/rates").path))

    let clear = await rates.run(["cache", "clear", "--json"])
    expectEqual(clear.status, 0, "\(clear.stderr)")
    expectEqual(try clear.json()["entries"] as? Int, entries)
    expectEqual(try clear.json()["cleared"] as? Bool, true)
    let cacheDirectory = rates.home.appendingPathComponent("cache/rates")
    expect(try FileManager.default.contentsOfDirectory(atPath: cacheDirectory.path).isEmpty)
    let data = rates.home.appendingPathComponent("data/rates/favorites.json")
    expect(FileManager.default.fileExists(atPath: data.path), "data files are never touched")
    let again = await rates.run(["cache", "clear"])
    expectContains(again.stdout, "already empty")
  }

  @Test func cacheClearRefusesHomeRootAndDataDirectories() async throws {
    let rates = try CLIHarness()
    let marker = rates.home.appendingPathComponent("keep.txt")
    try Data("keep".utf8).write(to: marker)
    // XDG_CACHE_HOME=$HOME/.. makes the cache $HOME itself when HOME ends in /rates.
    let home = rates.home.appendingPathComponent("rates")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    let atHome = await rates.run(
      ["cache", "clear"], environment: ["HOME": home.path, "XDG_CACHE_HOME": rates.home.path])
    expectEqual(atHome.status, 64, "\(atHome.stderr)")
    expectContains(atHome.stderr, "refusing")
    // A cache that holds the data directory.
    let shared = await rates.run(
      ["cache", "clear"],
      environment: ["XDG_CACHE_HOME": rates.home.path, "XDG_DATA_HOME": rates.home.path])
    expectEqual(shared.status, 64, "\(shared.stderr)")
    expect(FileManager.default.fileExists(atPath: marker.path))
  }
}
