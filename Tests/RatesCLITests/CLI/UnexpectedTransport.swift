import RatesTestSupport
import Testing

@testable import RateCore

extension HTTPTransport {
  /// A transport that fails the current test if a command makes any request.
  static func unexpected(_ comment: Comment = "no request expected") -> HTTPTransport {
    HTTPTransport { request in
      Issue.record(comment)
      throw HTTPError.cannotConnect(host: request.url.host ?? "nowhere")
    }
  }
}
