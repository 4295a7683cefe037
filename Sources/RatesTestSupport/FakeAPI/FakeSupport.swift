import Foundation
import RateCore

// MARK: - Helpers

public enum FakeSupport {
  /// `1 + 0.04·sin(0.45x + φ) + 0.015·sin(1.7x + 2φ)`, `φ = 2π·(fnv1a64(key) mod 10000)/10000`.
  public static func wave(key: String, x: Double) -> Double {
    let phase = Double(StableHash.fnv1a64(key) % 10_000) / 10_000 * 2 * Double.pi
    return 1 + 0.04 * sin(x * 0.45 + phase) + 0.015 * sin(x * 1.7 + 2 * phase)
  }

  public static func round(_ value: Double, places: Int) -> Double {
    let scale = pow(10, Double(places))
    return (value * scale).rounded() / scale
  }

  public static func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1_000).rounded(.down))
  }

  /// A comma-separated parameter, trimmed, lower-cased, empty items dropped.
  public static func list(_ text: String?) -> [String] {
    (text ?? "").split(separator: ",")
      .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
      .filter { !$0.isEmpty }
  }

  /// A JSON string literal; control characters become `\u00XX`.
  public static func quote(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        result += String(format: "\\u%04x", scalar.value)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  /// `66020.1234` → `"66,020.1234"`: 4 decimals with thousands separators.
  public static func grouped(_ value: Double) -> String {
    let fixed = String(format: "%.4f", value)
    let parts = fixed.split(separator: ".")
    var integer = Array(parts[0])
    var index = integer.count - 3
    while index > 0 {
      integer.insert(",", at: index)
      index -= 3
    }
    return String(integer) + "." + parts[1]
  }

  /// The BPI `"time"` member: `updated`, `updatedISO` and optionally `updateduk`.
  public static func bpiTime(_ date: Date, uk: Bool) -> String {
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    func parts(_ date: Date) -> (day: Day, hour: Int, minute: Int, second: Int) {
      let day = Day(containing: date)
      let seconds = Int(date.timeIntervalSince(day.start).rounded(.down))
      return (day, seconds / 3_600, seconds % 3_600 / 60, seconds % 60)
    }
    let utc = parts(date)
    let (year, month, dayOfMonth) = utc.day.components
    let clock = String(format: "%02d:%02d:%02d", utc.hour, utc.minute, utc.second)
    let updated = "\(months[month - 1]) \(dayOfMonth), \(year) \(clock) UTC"
    let iso = "\(utc.day.description)T\(clock)+00:00"
    var fields = ["\"updated\":\"\(updated)\"", "\"updatedISO\":\"\(iso)\""]
    if uk {
      let summer = isBritishSummerTime(date)
      let local = parts(date.addingTimeInterval(summer ? 3_600 : 0))
      let (ly, lm, ld) = local.day.components
      let clock = String(format: "%02d:%02d", local.hour, local.minute)
      let text = "\(months[lm - 1]) \(ld), \(ly) at \(clock) \(summer ? "BST" : "GMT")"
      fields.append("\"updateduk\":\"\(text)\"")
    }
    return "\"time\":{\(fields.joined(separator: ","))}"
  }

  /// BST runs from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October.
  public static func isBritishSummerTime(_ date: Date) -> Bool {
    let year = Day(containing: date).components.year
    func lastSunday(month: Int) -> Day {
      var day = Day(year: year, month: month, day: 31) ?? Day(daysSinceEpoch: 0)
      while day.isoWeekday != 7 { day = day.adding(days: -1) }
      return day
    }
    let begins = lastSunday(month: 3).start.addingTimeInterval(3_600)
    let ends = lastSunday(month: 10).start.addingTimeInterval(3_600)
    return date >= begins && date < ends
  }
}
