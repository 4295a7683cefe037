import Foundation
import RateCore

// The search frame.
extension HomeRenderer {
  static func renderSearch(_ state: HomeState, _ context: HomeRenderContext) -> [String] {
    ["Search"]
  }
}
