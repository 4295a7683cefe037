import Foundation
import RateCore

// The pair pickers' frames.
extension HomeRenderer {
  static func renderPicker(_ state: HomeState, _ context: HomeRenderContext) -> [String] {
    ["Pick a currency"]
  }
}
