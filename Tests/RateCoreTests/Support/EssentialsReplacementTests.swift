import Foundation
import RatesExpectations
import RatesTestSupport
import Synchronization
import Testing

@testable import RateCore

/// Issue 27: what replaced Foundation's internationalized API (absent from
/// FoundationEssentials) gives what it gave. Full Foundation, imported here only, is the
/// oracle: `String(format:)`, `trimmingCharacters(in:)`, `DateFormatter`.
@Suite struct EssentialsReplacementTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  static let values: [Double] = [
    0, -0.0, 0.5, 1.5, 2.5, 0.125, 0.375, 1.005, 2.675, 85_999, 64_321.505, 1e-7, 1.07e-6,
    -3.14159, 123_456_789.987_654, 1e15, 9.999_95e14, 1e20, 1.797e308, .leastNonzeroMagnitude,
    .nan, .infinity, -.infinity,
  ]

  @Test(arguments: 0...8) func fixedIsPrintfsRounding(places: Int) {
    for value in Self.values {
      expectEqual(
        NumberText.fixed(value, places: places), String(format: "%.*f", places, value),
        "\(value) to \(places) places")
    }
  }

  @Test(arguments: [3, 4]) func scientificIsPrintfs(digits: Int) {
    for value in Self.values {
      expectEqual(
        NumberText.scientific(value, digits: digits), String(format: "%.*e", digits, value),
        "\(value)")
    }
  }

  @Test func paddedIsPrintfsZeroPadding() {
    for value in [0, 7, 42, 600, 1999, 12_345, -5] {
      expectEqual(NumberText.padded(value, width: 4), String(format: "%04d", value))
      expectEqual(NumberText.padded(value, width: 2), String(format: "%02d", value))
    }
    for mode in [0o600, 0o644, 0o7, 0o777] {
      expectEqual(NumberText.padded(mode, width: 4, radix: 8), String(format: "%04o", mode))
    }
  }

  @Test func trimmingRemovesWhatFoundationsSetsRemove() {
    let texts = [
      "", " ", "\t a b \t", "\n x \r\n", "\u{A0}nbsp\u{3000}", "\u{2028}line\u{85}", "x",
      "  \"quoted\" ", "\r\nHTTP/1.1 200\r\n", "é ", " \u{301}",
    ]
    for text in texts {
      expectEqual(text.trimming(.whitespaces), text.trimmingCharacters(in: .whitespaces))
      expectEqual(text.trimming(.newlines), text.trimmingCharacters(in: .newlines))
      expectEqual(
        text.trimming(.whitespacesAndNewlines),
        text.trimmingCharacters(in: .whitespacesAndNewlines))
      expectEqual(
        text.trimming(.characters(" \"")),
        text.trimmingCharacters(in: CharacterSet(charactersIn: " \"")))
    }
  }

  /// Decided: only ASCII letters and digits stay as they are (RFC 3986); Foundation's
  /// `.alphanumerics` also kept other scripts' letters raw in a URL.
  @Test func percentEncodingKeepsASCIIAlphanumericsAndTheGivenMarks() {
    expectEqual("bitcoin,eth-2".percentEncoded(keeping: "-._~,"), "bitcoin,eth-2")
    expectEqual("a b/c?d&e=f".percentEncoded(keeping: "-._~,"), "a%20b%2Fc%3Fd%26e%3Df")
    expectEqual("é\n".percentEncoded(), "%C3%A9%0A")
    expectEqual("key-123".percentEncoded(), "key%2D123")
  }

  @Test func httpDatesReadAsDateFormatterReadThem() throws {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: 0)
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    for text in [
      "Mon, 10 Jun 2024 06:13:50 GMT", "Sun, 06 Nov 1994 08:49:37 GMT",
      "Thu, 01 Jan 1970 00:00:00 GMT", "Fri, 31 Dec 2099 23:59:59 GMT",
    ] {
      expectEqual(RetryAfter.httpDate(text), formatter.date(from: text), "\(text)")
    }
    for text in [
      "Mon, 10 Jun 2024 06:13 GMT", "10 Jun 2024 06:13:50 GMT", "Mon, 31 Feb 2024 06:13:50 GMT",
      "Mon, 10 Foo 2024 06:13:50 GMT", "Mon, 10 Jun 2024 25:13:50 GMT",
    ] {
      expectEqual(RetryAfter.httpDate(text), nil, "\(text)")
    }
  }

  @Test func aFileSystemErrorReadsAsItsPathAndReason() throws {
    let directory = try scratch.folder()
    let missing = directory.appendingPathComponent("no/such/file").path
    do {
      _ = try FileManager.default.attributesOfItem(atPath: missing)
      Issue.record("no error")
    } catch {
      expectContains(error.readableDescription, "such file")
    }
    struct Described: LocalizedError { var errorDescription: String? { "said so" } }
    expectEqual(Described().readableDescription, "said so")
  }

  @Test func offlineRatesAreMadeOnFirstUseOnly() {
    let made = Atomic(0)
    let source = PriceSource(
      name: .frankfurter,
      offlineRates: {
        made.add(1, ordering: .relaxed)
        return nil
      }(),
      resolve: { Asset(symbol: $0, id: $0) }, validateQuote: { _ in },
      prices: { _ in [] }, dailyCloses: { _, _, _ in throw CancellationError() })
    expectEqual(made.load(ordering: .relaxed), 0)
    expect(source.offlineRates == nil)
    expect(source.offlineRates == nil)
    expectEqual(made.load(ordering: .relaxed), 1)
  }

  @Test func aDetachedThreadRunsAndALockGuards() async {
    let counter = Mutex(0)
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      expect(
        detachThread {
          counter.withLock { $0 += 1 }
          done.resume()
        })
    }
    expectEqual(counter.withLock { $0 }, 1)
  }
}
