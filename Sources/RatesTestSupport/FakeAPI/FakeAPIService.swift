import Foundation
import Synchronization

/// The fake APIs as a standalone service, for the `fake-api` executable that the
/// benchmark and demo scripts run: ``FakeAPIs`` plus what scripts need around it.
///
/// - Control endpoints, not counted: `GET /__requests` (the API requests served so
///   far, as plain text) and `POST /__reset` (back to 0).
/// - An optional delay before every API reply, and an optional fixed clock.
/// - An optional log line per request.
public final class FakeAPIService: Sendable {
  /// How the service behaves; parsed from `fake-api`'s arguments.
  public struct Options: Equatable, Sendable {
    /// The port to listen on; 0 lets the kernel choose.
    public var port = 0
    /// A file to write the chosen port to (atomically), for scripts to wait on.
    public var portFile: String?
    /// Seconds of latency before every API reply.
    public var delay: Double = 0
    /// A fixed clock (Unix seconds); the real time when `nil`.
    public var now: Date?
    /// Whether to log every request to stderr.
    public var verbose = false
    /// Whether `--help` was given.
    public var help = false

    /// The defaults: any free port, no delay, the real clock, quiet.
    public init() {}

    /// Parses `fake-api`'s arguments (without the program name).
    /// - Throws: ``FakeAPIService/UsageError`` for an unknown option or a bad value.
    public init(arguments: [String]) throws(UsageError) {
      var remaining = arguments[...]
      func value(_ option: String) throws(UsageError) -> String {
        guard let next = remaining.popFirst() else { throw .missingValue(option) }
        return next
      }
      func parsed<Value: LosslessStringConvertible>(
        _ option: String, where valid: (Value) -> Bool
      ) throws(UsageError) -> Value {
        let text = try value(option)
        guard let parsed = Value(text), valid(parsed) else { throw .invalidValue(option, text) }
        return parsed
      }
      while let argument = remaining.popFirst() {
        var name = argument
        if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
          name = String(argument[..<equals])
          remaining.insert(
            String(argument[argument.index(after: equals)...]), at: remaining.startIndex)
        }
        switch name {
        case "--port": port = try parsed(name) { (0...65_535).contains($0) }
        case "--port-file": portFile = try value(name)
        case "--delay": delay = try parsed(name) { $0 >= 0 && $0.isFinite }
        case "--now": now = Date(timeIntervalSince1970: try parsed(name) { (seconds: Double) in seconds.isFinite })
        case "--verbose": verbose = true
        case "--help", "-h": help = true
        default: throw .unknownOption(argument)
        }
      }
    }
  }

  /// A mistake in `fake-api`'s arguments.
  public enum UsageError: Error, Equatable, CustomStringConvertible {
    case unknownOption(String)
    case missingValue(String)
    case invalidValue(String, String)

    public var description: String {
      switch self {
      case .unknownOption(let option): return "unknown option '\(option)'"
      case .missingValue(let option): return "missing value for '\(option)'"
      case .invalidValue(let option, let value):
        return "the value '\(value)' is invalid for '\(option)'"
      }
    }
  }

  /// `fake-api --help`.
  public static let usage = """
    fake-api: the fake CoinGecko, CoinDesk, Frankfurter, Coinbase and Kraken APIs of the
    tests, on 127.0.0.1.

    usage: fake-api [--port N] [--port-file PATH] [--delay SECONDS] [--now UNIX_SECONDS] [--verbose]

      --port N           listen on port N (default 0: a free port, printed on stdout)
      --port-file PATH   also write the port to PATH, atomically
      --delay SECONDS    latency before every API reply
      --now SECONDS      a fixed clock in Unix seconds (default: the real time)
      --verbose          log every request to stderr

    CoinGecko is under /api/v3, CoinDesk under /v1/bpi, Frankfurter under /frankfurter,
    Coinbase under /coinbase, Kraken under /kraken, the ECB under /ecb:
      RATES_COINGECKO_URL=http://127.0.0.1:PORT/api/v3
      RATES_COINDESK_URL=http://127.0.0.1:PORT/v1/bpi
      RATES_FRANKFURTER_URL=http://127.0.0.1:PORT/frankfurter
      RATES_COINBASE_URL=http://127.0.0.1:PORT/coinbase
      RATES_KRAKEN_URL=http://127.0.0.1:PORT/kraken
      RATES_ECB_URL=http://127.0.0.1:PORT/ecb
    Control endpoints (not counted): GET /__requests (API requests so far), POST /__reset.

    """

  private let options: Options
  private let fakes: @Sendable (RecordedRequest) -> LoopbackReply
  private let log: @Sendable (String) -> Void
  private let served = Mutex(0)

  /// A service with `options`; `log` receives a line per request when `verbose`.
  public init(options: Options, log: @escaping @Sendable (String) -> Void = { _ in }) {
    self.options = options
    self.log = log
    let fixed = options.now
    fakes = FakeAPIs.handler(now: { fixed ?? Date() })
  }

  /// The API requests served since the start or the last reset.
  public var requestCount: Int { served.withLock { $0 } }

  /// Answers one request: a control endpoint, or the fakes after the delay.
  public func handle(_ request: RecordedRequest) -> LoopbackReply {
    let reply: LoopbackReply
    switch (request.method, request.path) {
    case ("GET", "/__requests"), ("HEAD", "/__requests"):
      reply = .text(String(requestCount), status: 200)
    case ("POST", "/__reset"):
      served.withLock { $0 = 0 }
      reply = .text("0", status: 200)
    case (_, "/__requests"), (_, "/__reset"):
      reply = .text("method not allowed", status: 405)
    default:
      served.withLock { $0 += 1 }
      let answer = fakes(request)
      reply = options.delay > 0 ? .delayed(seconds: options.delay, answer) : answer
    }
    if options.verbose { log("\(request.method) \(request.target) \(Self.status(of: reply))") }
    return reply
  }

  private static func status(of reply: LoopbackReply) -> String {
    switch reply {
    case .response(let status, _, _): return String(status)
    case .delayed(_, let inner), .truncated(let inner, _): return status(of: inner)
    case .dropConnection: return "dropped"
    case .trickle(let status, _, _, _), .endlessChunked(let status, _, _): return String(status)
    }
  }
}
