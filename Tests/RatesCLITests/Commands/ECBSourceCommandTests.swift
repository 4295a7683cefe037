import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// The currency chain (Frankfurter → the ECB itself → the built-in snapshot) and
/// the pair no source serves, in process against the fake APIs (the ECB's fake
/// answers the real hosts' paths).
@Suite struct ECBSourceCommandTests {
  /// Frankfurter answering 503 to everything.
  static func frankfurterDown(_ fake: @escaping @Sendable (RecordedRequest) -> LoopbackReply)
    -> @Sendable (RecordedRequest) -> LoopbackReply
  {
    { request in request.path.hasPrefix("/frankfurter/") ? .text("down", status: 503) : fake(request) }
  }

  @Test func frankfurterDownTheECBAnswersLabelled() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI(handler: Self.frankfurterDown)
    let current = await rates.run(["current", "EUR-USD", "--json"])
    expectEqual(current.status, 0, "\(current.stderr)")
    let quote = try require((try current.json()["quotes"] as? [[String: Any]])?.first)
    expectEqual(quote["source"] as? String, "ecb")
    expectEqual(quote["stale"] as? Bool, false)
    let day = UpdateRhythm.newestECBDay(at: fixedNow)
    expectEqual(quote["rate"] as? Double, FakeFrankfurter.eurRate("USD", day: day))
    expect(server.requests.contains { $0.path == "/ecb/stats/eurofxref/eurofxref-daily.xml" })

    let history = await rates.run(["history", "EUR", "USD", "--json"])
    expectEqual(history.status, 0, "\(history.stderr)")
    let json = try history.json()
    expectEqual(json["source"] as? String, "ecb")
    let points = try require(json["points"] as? [[String: Any]])
    expectEqual(points.count, 28)
    let first = try require(Day(points.first?["date"] as? String ?? ""))
    let published = FakeFrankfurter.workingDay(onOrBefore: first)
    expectEqual(points.first?["rate"] as? Double, FakeFrankfurter.eurRate("USD", day: published))
    expect(server.requests.contains { $0.path == "/ecb/service/data/EXR/D.USD.EUR.SP00.A" })

    // The stored days remember their source: a second run, from the store, says ecb too.
    let again = await rates.run(["history", "EUR", "USD", "--json", "--offline"])
    expectEqual(try again.json()["source"] as? String, "ecb", "\(again.stderr)")
    let table = await rates.run(["history", "EUR", "USD", "--offline"])
    expect(table.stdout.contains("ECB") && !table.stdout.contains("Frankfurter"), "\(table.stdout)")
  }

  /// `rates doctor`'s `ecb` check, by name.
  static func ecbCheck(_ result: CommandResult) throws -> [String: Any] {
    let checks = try require(try result.json()["checks"] as? [[String: Any]])
    return try require(checks.first { $0["name"] as? String == "ecb" })
  }

  @Test func doctorChecksTheECBsDailyFileAndItsLastAnswer() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI(handler: Self.frankfurterDown)
    let fresh = await rates.run(["doctor", "--json"])
    var ecb = try Self.ecbCheck(fresh)
    expectEqual(ecb["status"] as? String, "ok", "\(ecb)")
    expectEqual(ecb["url"] as? String, "https://www.ecb.europa.eu")
    expect(ecb["httpStatus"] as? Int == 200 && ecb["latencyMs"] is Int)
    expect(ecb["lastSuccess"] == nil, "doctor's own probe is not a command's answer")
    let daily = "/ecb/stats/eurofxref/eurofxref-daily.xml"
    expectEqual(server.requests.filter { $0.path == daily }.count, 1)
    expectEqual(server.requests.filter { $0.path.hasPrefix("/ecb/") }.count, 1)

    // Frankfurter is down: the ECB answers a command, and doctor says when.
    expectEqual(await rates.run(["current", "EUR-USD"]).status, 0)
    let after = await rates.run(["doctor", "--json"])
    ecb = try Self.ecbCheck(after)
    expectEqual(ecb["lastSuccess"] as? String, ISO8601.format(rates.clock.now), "\(ecb)")
    expect((ecb["detail"] as? String ?? "").contains("last answered"))
    let document = try JSONSerialization.jsonObject(with: Data(after.stdout.utf8))
    let problems = try JSONShapes.documented().check(document, against: .shape("doctor"), at: "doctor")
    expect(problems.isEmpty, "\(problems)")
  }

  @Test func doctorFailsTheECBWhenItsDailyFileFails() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI { fake in
      { request in request.path.hasPrefix("/ecb/") ? .text("down", status: 503) : fake(request) }
    }
    let result = await rates.run(["doctor", "--json"])
    expectEqual(result.status, ExitCode.doctorFailed.rawValue)
    let ecb = try Self.ecbCheck(result)
    expectEqual(ecb["status"] as? String, "fail")
    expectEqual(ecb["httpStatus"] as? Int, 503)
    expect((ecb["detail"] as? String ?? "").hasPrefix("answered HTTP 503"), "\(ecb)")
    let text = await rates.run(["doctor"])
    expect(text.stdout.split(separator: "\n").contains { $0.hasPrefix("fail") && $0.contains(" ecb ") })
  }

  /// GBP/USD as the ECB's fake publishes it on its newest day.
  static var gbpUSD: Double {
    let day = UpdateRhythm.newestECBDay(at: fixedNow)
    // Crossed through the euro: a computed rate, to 10 significant digits (Figure).
    return Figure.crossRate(FakeFrankfurter.eurRate("USD", day: day), per: FakeFrankfurter.eurRate("GBP", day: day))
  }

  static func count(_ server: InProcessServer, _ prefix: String) -> Int {
    server.requests.filter { $0.path.hasPrefix(prefix) }.count
  }

  /// Before: `watch` and `pairs` asked Frankfurter alone and showed nothing fresh.
  @Test func watchAnswersAFiatPairFromTheECBWhenFrankfurterIsDown() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI(handler: Self.frankfurterDown)
    let result = await rates.run(["watch", "GBP-USD", "--every", "1", "--count", "2", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let lines = try result.jsonLines().filter { $0["base"] as? String == "GBP" }
    expectEqual(lines.count, 2)
    for line in lines {
      expectEqual(line["source"] as? String, "ecb", "\(line)")
      expect(abs((line["rate"] as? Double ?? 0) - Self.gbpUSD) < 1e-12)
    }
    // One range request each: the second update is within the hour the rates are kept.
    expect(Self.count(server, "/frankfurter/") == 1 && Self.count(server, "/ecb/") == 1)
    expect(server.requests.contains { $0.path == "/ecb/service/data/EXR/D.GBP+USD.EUR.SP00.A" })

    let table = await rates.run(["watch", "GBP-USD", "--every", "1", "--count", "1"])
    expectEqual(table.status, 0, "\(table.stderr)")
    expect(table.stdout.contains("ECB") && !table.stdout.contains("Frankfurter"), "\(table.stdout)")
  }

  @Test func pairsAnswerFromTheECBLabelledAndTheCacheKeepsTheLabel() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI(handler: Self.frankfurterDown)
    expectEqual(await rates.run(["pairs", "add", "GBP", "USD"]).status, 0)
    let result = await rates.run(["pairs", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let row = try require((try result.json()["pairs"] as? [[String: Any]])?.first)
    expectEqual(row["source"] as? String, "ecb", "\(row)")
    expect(abs((row["rate"] as? Double ?? 0) - Self.gbpUSD) < 1e-12)
    expectEqual(row["stale"] as? Bool, false)
    expectEqual(Self.count(server, "/ecb/service/data/"), 1, "one ECB range for the set")
    let asked = server.requestCount
    let again = await rates.run(["pairs", "--json"])
    expectEqual(server.requestCount, asked, "fresh for an hour: from the cache")
    expectEqual((try again.json()["pairs"] as? [[String: Any]])?.first?["source"] as? String, "ecb")
  }

  @Test func everySourceDownAFiatPairShowsItsCacheStale() async throws {
    let down = ReplySwitch()
    let (rates, _) = try CLIHarness.withFakeAPI { fake in
      { request in
        request.path.hasPrefix("/frankfurter/") || request.path.hasPrefix("/ecb/")
          ? down.wrapping(fake)(request) : fake(request)
      }
    }
    expectEqual(await rates.run(["pairs", "add", "GBP", "USD"]).status, 0)
    expectEqual(await rates.run(["pairs", "--json"]).status, 0)
    down.fail(with: .text("down", status: 503))
    rates.clock.advance(by: 7200)
    let result = await rates.run(["watch", "GBP-USD", "--every", "1", "--count", "1", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let line = try require(try result.jsonLines().first { $0["base"] as? String == "GBP" })
    expectEqual(line["stale"] as? Bool, true, "\(line)")
    expectEqual(line["source"] as? String, "frankfurter")
  }

  @Test func everySourceDownTheSnapshotAnswersStale() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI { fake in
      { request in
        request.path.hasPrefix("/frankfurter/") || request.path.hasPrefix("/ecb/")
          ? .text("down", status: 503) : fake(request)
      }
    }
    let result = await rates.run(["current", "EUR-USD", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let quote = try require((try result.json()["quotes"] as? [[String: Any]])?.first)
    expectEqual(quote["stale"] as? Bool, true)
    expectEqual((quote["source"] as? String)?.hasPrefix(ECBSnapshot.sourcePrefix), true, "\(quote)")
    expect(server.requests.contains { $0.path.hasPrefix("/ecb/") })
  }

  @Test func aPinnedProviderNeverFallsBack() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI(handler: Self.frankfurterDown)
    let pinned = await rates.run(["current", "EUR-USD", "--json", "--provider", "frankfurter"])
    expect(!server.requests.contains { $0.path.hasPrefix("/ecb/") }, "\(pinned.stderr)")

    let ecb = await rates.run(["current", "EUR-USD", "--json", "--provider", "ecb", "--refresh"])
    expectEqual(ecb.status, 0, "\(ecb.stderr)")
    expectEqual((try ecb.json()["quotes"] as? [[String: Any]])?.first?["source"] as? String, "ecb")
    let asked = server.requests.count
    let both = server.requests.filter { $0.path.hasPrefix("/frankfurter/") }.count
    _ = await rates.run(["history", "GBP", "USD", "--provider", "ecb", "--json"])
    expectEqual(server.requests.filter { $0.path.hasPrefix("/frankfurter/") }.count, both)
    expectEqual(server.requests.count, asked + 1)
  }

  @Test func aPairNoSourceServesIsNotAdded() async throws {
    // A Frankfurter mirror without KRW: it answers 404 for any request naming it.
    let (rates, server) = try CLIHarness.withFakeAPI { fake in
      { request in
        request.target.contains("KRW") ? .json(#"{"message":"not found"}"#, status: 404) : fake(request)
      }
    }
    let refused = await rates.run(["pairs", "add", "GBP", "KRW"])
    expectEqual(refused.status, 64)
    expect(refused.stdout.isEmpty)
    expectEqual(
      refused.stderr,
      "error: no source serves GBP/KRW: Frankfurter (ECB) has no rate for it;"
        + " nothing was added (see 'rates currencies')\n")
    expectEqual(server.requestCount, 1)
    let files = FileManager.default.enumerator(atPath: rates.home.path)?.compactMap { $0 as? String } ?? []
    expect(!files.contains { $0.hasSuffix("pairs.json") }, "nothing is written")

    // A pair it serves is added after the same one request.
    let added = await rates.run(["pairs", "add", "GBP", "USD"])
    expectEqual(added.status, 0, "\(added.stderr)")
    expectEqual(server.requestCount, 2)
  }

  @Test func aMirrorThatDropsTheCurrencySaysWhichOne() async throws {
    // A mirror that silently leaves KRW out of its answers.
    let (rates, _) = try CLIHarness.withFakeAPI { fake in
      { request in
        AnswerGateCLITests.rewriting(fake(request)) { object in
          var copy = object
          if var days = object["rates"] as? [String: Any] {
            for (day, value) in days {
              var table = value as? [String: Any] ?? [:]
              table["KRW"] = nil
              days[day] = table
            }
            copy["rates"] = days
          }
          return copy
        }
      }
    }
    let refused = await rates.run(["pairs", "add", "GBP", "KRW", "--json"])
    expectEqual(refused.status, 64)
    expect(
      refused.stderr.contains("no source serves GBP/KRW: Frankfurter (ECB) does not price in KRW"), "\(refused.stderr)")
    expect(refused.stderr.contains(#""code":"unserved_pair""#), "\(refused.stderr)")
  }

  @Test func unreachableSourcesLeaveTheBuiltInListToDecide() async throws {
    let rates = try CLIHarness()
    let added = await rates.run(["pairs", "add", "GBP", "KRW"])
    expectEqual(added.status, 0, "\(added.stderr)")
  }
}
