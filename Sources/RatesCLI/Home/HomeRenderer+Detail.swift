import Foundation
import RateCore

// The detail frame.
extension HomeRenderer {
  static func renderDetail(_ state: HomeState, _ context: HomeRenderContext) -> [String] {
    ["Detail"]
  }
}
