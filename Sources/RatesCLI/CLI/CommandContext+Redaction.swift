import RateCore

extension CommandContext {
  /// The same context with both output streams passed through `redaction`.
  func redacting(_ redaction: Redaction) -> CommandContext {
    guard !redaction.secrets.isEmpty else { return self }
    var copy = self
    let out = writeOut
    let err = writeErr
    copy.writeOut = { out(redaction.apply($0)) }
    copy.writeErr = { err(redaction.apply($0)) }
    return copy
  }

  /// The secrets this run may know: the CoinGecko keys from the environment
  /// and from the config file's settings (`config`), whichever is in use.
  func secrets(config: [String: String]?) -> Redaction {
    let keys = EnvironmentVariable.coinGeckoKeys.compactMap { $0.raw(in: environment) }
    return Redaction(secrets: keys + [config?[ConfigKey.apiKey.rawValue]].compactMap { $0 })
  }
}
