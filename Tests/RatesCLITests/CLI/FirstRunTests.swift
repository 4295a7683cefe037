import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// Issue 15, the first run: offline on a fresh account, the first error's next step works.
@Suite struct FirstRunTests {
  @Test(arguments: [
    HTTPError.cannotConnect(host: "api.coingecko.com"),
    HTTPError.cannotFindHost(host: "api.coingecko.com"),
    HTTPError.timedOut(host: "api.coingecko.com", seconds: 10),
  ])
  func offlineOnAFreshAccountTheHintLeadsSomewhere(_ failure: HTTPError) async throws {
    let rates = try CLIHarness(transport: HTTPTransport { _ in throw failure })
    let first = await rates.run(["current", "BTC"])
    expectEqual(first.status, 69)
    // Nothing is cached on a fresh account: '--offline' would only say so.
    expect(!first.stderr.contains("--offline"), "\(first.stderr)")
    expectEqual(await rates.run(["current", "BTC", "--offline"]).status, 66)
    // The step it names works with no network at all.
    expectContains(first.stderr, "rates convert 100 EUR USD")
    let next = await rates.run(["convert", "100", "EUR", "USD"])
    expectEqual(next.status, 0, "\(next.stderr)")
    expectContains(first.stderr, "'rates doctor'")
  }

  /// Beside data that was shown anyway (the cache, the ECB snapshot), the note keeps the
  /// reason but not the offline next steps.
  @Test func aStaleNoteCarriesNoOfflineSteps() async throws {
    let down = Recorder<Bool>()
    let server = InProcessServer.fakeAPI()
    let rates = try CLIHarness(
      makeTransport: { seconds in
        let inner = server.transport(timeoutSeconds: seconds)
        return HTTPTransport { request in
          if !down.all.isEmpty { throw HTTPError.cannotFindHost(host: request.url.host ?? "?") }
          return try await inner.send(request)
        }
      }, clock: server.clock)
    expectEqual(await rates.run(["current", "BTC", "GBP-USD"]).status, 0)
    server.clock.advance(by: 7200)
    down.append(true)
    let stale = await rates.run(["current", "BTC", "GBP-USD"])
    expectEqual(stale.status, 0, "\(stale.stderr)")
    expectContains(stale.stderr, "could not resolve")
    expectContains(stale.stderr, "showing cached data")
    expect(!stale.stderr.contains("rates doctor"), "\(stale.stderr)")
  }
}
