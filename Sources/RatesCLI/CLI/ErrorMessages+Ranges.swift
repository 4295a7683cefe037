import Foundation
import RateCore

// The words for requests refused before asking anyone: days before the data
// begins, and currencies that ended.

extension RangeBeforeData: LocalizedError {
  public var errorDescription: String? {
    let days =
      asked.lowerBound == asked.upperBound
      ? "on \(asked.lowerBound)" : "from \(asked.lowerBound) to \(asked.upperBound)"
    return "no ECB rates \(days): the ECB's rates start on \(firstDay); ask for days from "
      + "\(firstDay) on"
  }
}

extension RetiredCurrencies.Ended: LocalizedError {
  public var errorDescription: String? {
    let why: String
    var instead = ""
    switch ending {
    case .euroAdopted(let country):
      why = "\(country) adopted the euro"
      instead = ", or use EUR"
    case .suspended:
      why = "the ECB suspended it"
    case .replaced(let successor, let factor):
      why = "replaced by \(successor), \(factor) \(code) = 1 \(successor)"
      instead = ", or use \(successor)"
    }
    let other = code == "EUR" ? "USD" : "EUR"
    return "\(code): the ECB's last rate is \(lastDay) (\(why)); its rates up to then remain "
      + "(rates history \(code) \(other) --date \(lastDay))\(instead)"
  }
}
