import RateCore

/// The messages of `--interval hourly` refusals.
enum HourlyMessages {
  /// Why `--interval hourly` cannot answer a request.
  static func hourly(_ refusal: HourlyHistory.Refusal) -> String {
    switch refusal {
    case .dailyOnly(let provider):
      let name = provider == .frankfurter ? "ECB" : provider.displayName
      return "\(name) rates are daily: --interval hourly is for coin pairs priced by CoinGecko; "
        + "drop --interval"
    case .tooOld(let first, let earliest):
      return "--interval hourly reaches back \(HourlyHistory.maximumDays) days, to \(earliest); "
        + "\(first) is older: use --from \(earliest) or later, or daily rates"
    }
  }

  /// Why an hourly series has no beancount export.
  static let hourlyBeancount =
    "beancount price directives have a date but no time, so hourly prices cannot be written "
    + "as beancount: use --format ledger or csv, or daily rates"
}
