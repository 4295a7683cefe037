import RateCore

// The words for requests refused before asking anyone: days before the data
// begins, and currencies that ended.

extension RangeBeforeData: LocalizedError {
  public var errorDescription: String? {
    let days =
      asked.lowerBound == asked.upperBound
      ? "on \(asked.lowerBound)" : "from \(asked.lowerBound) to \(asked.upperBound)"
    guard provider == Provider.frankfurter else {
      return "no \(provider.displayName) prices \(days): coin prices start on \(firstDay)"
        + " (Bitcoin's first block); ask for days from \(firstDay) on"
    }
    return "no ECB rates \(days): the ECB's rates start on \(firstDay); ask for days from "
      + "\(firstDay) on"
  }
}

extension UnservedPair: LocalizedError {
  public var errorDescription: String? {
    let why: String
    if case .invalidCurrency(_, let currency) = reason {
      let codes = currency.split(separator: ",").map { UntrustedText.sanitize(String($0)) }
      why = "does not price in " + (codes.count > 1 ? "one of " : "") + codes.joined(separator: ", ")
    } else {
      why = "has no rate for it"
    }
    return "no source serves \(base)/\(quote): \(provider.displayName) \(why);"
      + " nothing was added (see 'rates currencies')"
  }
}

extension RetiredCurrencies.Ended: LocalizedError {
  public var errorDescription: String? {
    var instead = ""
    switch ending {
    case .euroAdopted: instead = ", or use EUR"
    case .suspended: break
    case .replaced(let successor, _): instead = ", or use \(successor)"
    }
    let other = code == "EUR" ? "USD" : "EUR"
    return "\(headline); its rates up to then remain "
      + "(rates history \(code) \(other) --date \(lastDay))\(instead)"
  }

  /// `BGN: the ECB's last rate is 2025-12-31 (Bulgaria adopted the euro)`.
  var headline: String {
    let why: String
    switch ending {
    case .euroAdopted(let country): why = "\(country) adopted the euro"
    case .suspended: why = "the ECB suspended it"
    case .replaced(let successor, let factor):
      why = "replaced by \(successor), \(factor) \(code) = 1 \(successor)"
    }
    return "\(code): the ECB's last rate is \(lastDay) (\(why))"
  }
}
