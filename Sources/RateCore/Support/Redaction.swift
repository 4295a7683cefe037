/// The one place secrets are taken out of text: every line `rates` prints
/// (tables, JSON, warnings, errors, watch lines) passes through it, so an
/// API key echoed back in a provider's error body, a URL or a message can
/// never reach the screen, a pipe or a log.
public struct Redaction: Sendable, Equatable {
  /// What stands in for a secret.
  public static let placeholder = "[redacted]"

  /// The secrets, longest first (so one that contains another goes whole).
  public let secrets: [String]

  /// Creates a redaction for `secrets`; empty and very short values (under
  /// four characters, which would mangle ordinary text) are ignored.
  public init(secrets: [String]) {
    let kept = Set(secrets.map { $0.trimming(.whitespacesAndNewlines) })
      .filter { $0.count >= 4 }
    self.secrets = kept.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
  }

  /// `text` with every secret replaced by ``placeholder``, also when
  /// percent-encoded (as in a URL).
  public func apply(_ text: String) -> String {
    guard !secrets.isEmpty else { return text }
    var result = text
    for secret in secrets {
      result = result.replacing(secret, with: Self.placeholder)
      let encoded = secret.percentEncoded()
      if encoded != secret { result = result.replacing(encoded, with: Self.placeholder) }
    }
    return result
  }
}
