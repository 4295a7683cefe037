import Foundation
import RateCore
import RatesExpectations
import RatesTestSupport
import Testing

/// Decoders and error mapping over every real recorded response
/// (`fixtures/real/**`, see `RealCorpus`).
@Suite struct RealCorpusTests {
  @Test func everyRecordedBodyHasAnExpectation() {
    expect(RealCorpus.files.count >= 76)
    let missing = RealCorpus.files.filter { RealCorpus.expectations[$0] == nil }
    expect(missing.isEmpty, "recorded bodies without an expectation: \(missing)")
    let stale = Set(RealCorpus.expectations.keys).subtracting(RealCorpus.files).sorted()
    expect(stale.isEmpty, "expectations for files that do not exist: \(stale)")
  }

  @Test(arguments: RealCorpus.files)
  func recordedBodyGivesItsExpectedResult(_ file: String) async throws {
    let expectation = try require(RealCorpus.expectations[file], "no expectation for \(file)")
    let body = try Fixtures.data("real/\(file)")
    guard let call = expectation.call else {
      guard case .notCalled(let check) = expectation.outcome else {
        Issue.record("an entry without a call must be .notCalled")
        return
      }
      try check(try JSONSerialization.jsonObject(with: body))
      return
    }
    let transport = HTTPTransport { _ in
      HTTPResponse(
        status: expectation.status,
        headers: HTTPHeaders(expectation.headers.map { (name: $0.key, value: $0.value) }), body: body)
    }
    let key: CoinGeckoClient.APIKey? =
      file.contains("10010") ? .pro("CG-test") : file.contains("10011") ? .demo("CG-test") : nil
    switch expectation.outcome {
    case .decodes(let check):
      try check(try await call.run(transport, key: key))
    case .fails(let expected):
      await #expect(throws: expected) { _ = try await call.run(transport, key: key) }
    case .notCalled:
      Issue.record("an entry with a call needs .decodes or .fails")
    }
  }
}
