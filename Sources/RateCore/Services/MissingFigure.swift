/// A figure a batch answer lacks, named as the user names it, and why: what a front end names
/// beside the figures that did arrive, so that one failed pair never blanks the rest.
public struct MissingFigure: Sendable {
  /// `GBP/KRW`, `C3/USD`, `ranks 501-750 in USD`.
  public var name: String
  /// The provider that was asked, when one was.
  public var provider: RateSource?
  /// Why it did not arrive; `nil` when the provider answered without it.
  public var failure: (any Error)?

  /// A figure that did not arrive, for `failure` (`nil`: left out of an answer by `provider`).
  public init(_ name: String, provider: RateSource? = nil, failure: (any Error)? = nil) {
    self.name = name
    self.provider = provider
    self.failure = failure
  }

  /// The names `provider`'s answer left out (``CachedAnswer/missing``), without a failure.
  public static func leftOut(_ names: [String], by provider: RateSource) -> [MissingFigure] {
    names.map { MissingFigure($0, provider: provider) }
  }
}

extension ProviderError {
  /// Whether the refusal is about something asked (a currency or coin the provider lacks, a
  /// range it has no data for) rather than the provider's state: a batch refused so may be
  /// asked again part by part, and the parts it serves still arrive.
  public var isAboutRequest: Bool {
    switch self {
    case .noSourceAnswered: return decisive.isAboutRequest
    case .noData, .invalidCurrency, .coinNotFound, .notCovered, .unsupported, .noProvider:
      return true
    default:
      return false
    }
  }
}

extension Provider {
  /// Whether one part the provider lacks refuses its whole batch (Frankfurter answers 404 for
  /// a set with one unknown currency), so the batch is asked again part by part; CoinGecko's
  /// batches answer in part themselves (``Notice/missingFromAnswer(provider:pairs:)``).
  var refusesWholeBatch: Bool { self == .frankfurter }
}

extension RateDesk {
  /// `body` for all of `parts` at once; when that is refused for what was asked
  /// (``ProviderError/isAboutRequest``) and there is more than one part, each part alone, so
  /// that the parts a provider serves arrive. One result per part, in order.
  func partByPart<Part: Sendable, Value: Sendable>(
    _ parts: [Part], _ body: @Sendable ([Part]) async throws -> [Value]
  ) async -> [Result<Value, any Error>] {
    do {
      return try await body(parts).map { .success($0) }
    } catch let error as ProviderError where error.isAboutRequest && parts.count > 1 {
      var results: [Result<Value, any Error>] = []
      for part in parts {
        results += await partByPart([part], body)
      }
      return results
    } catch {
      return parts.map { _ in .failure(error) }
    }
  }
}

extension Result where Failure == any Error {
  /// One result per part of a batch asked at once: its values, or its failure for every part.
  func wholeBatch<Value>(_ count: Int) -> [Result<Value, any Error>] where Success == [Value] {
    switch self {
    case .success(let values): return values.map { .success($0) }
    case .failure(let error): return Array(repeating: .failure(error), count: count)
    }
  }
}
