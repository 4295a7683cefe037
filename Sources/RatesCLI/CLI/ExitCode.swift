import RateCore

/// The process exit codes `rates` documents in README and `--help`.
///
/// They follow BSD `sysexits.h` where one fits, so scripts can tell a typo
/// from an outage from a rate limit.
enum ExitCode: Int32, Sendable, CaseIterable {
  /// Success, including answers from stale cache after a failed fetch, and partial answers
  /// (some figures arrived; the missing ones are named on stderr and in `missing`).
  case success = 0
  /// An unexpected failure.
  case failure = 1
  /// A check found a problem: `rates doctor` (a check failed), or `rates cache verify`
  /// (stored days differ from the provider's answer, without `--fix`).
  case doctorFailed = 2
  /// An alert triggered with `rates watch --exit-on-alert`.
  case alert = 3
  /// Bad usage: unknown option or command, bad number or date, unknown coin
  /// or currency, same-currency pair, a pair no source serves.
  case usage = 64
  /// No data available: nothing cached with `--offline`, or the provider has
  /// none for the request.
  case noData = 66
  /// The provider could not be reached or answered with an error, and
  /// nothing was cached.
  case unavailable = 69
  /// The output could not be written (a full disk, a closed stream); a
  /// reader that closes a pipe early is not a failure.
  case outputFailed = 73
  /// A local file could not be read or written.
  case ioError = 74
  /// Rate limited by the provider, and nothing was cached.
  case rateLimited = 75
  /// Configuration problem: an API key missing or used on the wrong host.
  case config = 78
  /// The terminal closed (SIGHUP) during `rates watch`, `history --interactive` or `ui`.
  case hangup = 129
  /// Interrupted by Ctrl-C (SIGINT).
  case interrupted = 130
  /// Ended by SIGTERM (`rates watch`).
  case terminated = 143

  /// One line for the help text and README.
  var meaning: String {
    switch self {
    case .success: return "success (also stale cached data, or part of an answer with a warning)"
    case .failure: return "unexpected failure"
    case .doctorFailed: return "rates doctor or cache verify found a problem"
    case .alert: return "an alert triggered with --exit-on-alert"
    case .usage:
      return "usage error: bad option, value, coin, currency or pair (or one no source serves), "
        + "or a file ledger import refuses (nothing written)"
    case .noData: return "no data available (nothing cached with --offline, or none at the provider)"
    case .unavailable: return "provider unreachable or failing, and nothing cached"
    case .outputFailed: return "the output could not be written (disk full, stream closed)"
    case .ioError: return "a local file could not be read or written"
    case .rateLimited: return "rate limited by the provider, and nothing cached"
    case .config: return "configuration problem (API key)"
    case .hangup: return "the terminal closed (SIGHUP) during watch, history --interactive or ui"
    case .interrupted: return "interrupted (Ctrl-C)"
    case .terminated: return "terminated (SIGTERM)"
    }
  }
}

/// How an error is reported: its exit code, a stable machine-readable code
/// for `--json`, and its one-line message.
struct ErrorReport: Equatable, Sendable {
  /// The process exit code.
  var exitCode: ExitCode
  /// A stable identifier such as `rate_limited`, for scripts.
  var code: String
  /// The sentence shown after `error: `.
  var message: String

  /// Classifies any error `rates` can throw.
  ///
  /// - Parameter keySetup: the user's CoinGecko key setup, so that key
  ///   advice fits it; `nil` when unknown.
  init(_ error: any Error, keySetup: KeySetup? = nil) {
    switch error {
    case let error as UsageError:
      self.init(.usage, "usage", error)
    case let error as ProviderError:
      self.init(provider: error, keySetup: keySetup)
    case let error as CoinResolver.Refusal:
      self.init(.usage, "not_a_coin", error)
    case let error as RangeBeforeData:
      self.init(.usage, "before_data", error)
    case let error as UnservedPair:
      self.init(.usage, "unserved_pair", error)
    case let error as RetiredCurrencies.Ended:
      self.init(.noData, "currency_ended", error)
    case let error as LedgerCommand.ImportRefusal:
      self.init(.usage, "bad_import", error)
    case let error as PortfolioCommand.UnpricedEntry:
      self.init(.usage, "unpriced", error)
    case let error as PortfolioError:
      switch error {
      case .overdrawn: self.init(.usage, "overdrawn", error)
      case .unpriced: self.init(.usage, "unpriced", error)
      case .noPrice: self.init(.noData, "no_price", error)
      }
    case is LedgerQueryError, is RateService.ServiceError, is WatchCommand.NothingToWatch:
      self.init(.noData, "no_data", error)
    case let error as AtomicFile.WriteError:
      self.init(.ioError, "io_error", error)
    case let error as DataFileError:
      self.init(.ioError, "data_file", error)
    default:
      self.init(.failure, "internal", error)
    }
  }

  /// Classifies a provider's error: a usage, key, availability or no-data problem.
  init(provider error: ProviderError, keySetup: KeySetup?) {
    switch error {
    case .rateLimited:
      self.init(.rateLimited, "rate_limited", error, message: error.message(keySetup: keySetup))
    case .coinNotFound: self.init(.usage, "unknown_coin", error)
    case .invalidCurrency: self.init(.usage, "unknown_currency", error)
    case .unsupported: self.init(.usage, "unsupported", error)
    case .historyTooOld: self.init(.usage, "history_too_old", error)
    case .noProvider: self.init(.usage, "no_provider", error)
    case .notCovered: self.init(.usage, "unsupported", error)
    case .apiKeyMissing, .apiKeyRejected, .paidPlanOnly, .keyPlanMismatch:
      self.init(.config, "api_key", error, message: error.message(keySetup: keySetup))
    case .serverError: self.init(.unavailable, "server_error", error)
    case .httpStatus: self.init(.unavailable, "http_error", error)
    case .network: self.init(.unavailable, "network", error)
    case .malformedResponse: self.init(.unavailable, "malformed_response", error)
    case .noData: self.init(.noData, "no_data", error)
    case .leftOut: self.init(.noData, "left_out", error)
    case .noSourceAnswered:
      // What the decisive failure means, in the words of every source's.
      var report = ErrorReport(provider: error.decisive, keySetup: keySetup)
      report.message = TerminalText.sanitize(error.message(keySetup: keySetup))
      self = report
    }
  }

  init(_ exitCode: ExitCode, _ code: String, _ error: any Error, message: String? = nil) {
    self.exitCode = exitCode
    self.code = code
    let text =
      message ?? (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
    // A message of several problems (an import's bad rows) keeps one line each.
    self.message = text.split(separator: "\n").map { TerminalText.sanitize(String($0)) }.joined(separator: "\n")
  }
}
