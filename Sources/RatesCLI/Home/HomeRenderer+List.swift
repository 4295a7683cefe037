import Foundation
import RateCore

// The home list, favorites and help frames.
extension HomeRenderer {
  static func renderList(_ state: HomeState, _ context: HomeRenderContext) -> [String] {
    ["rates"]
  }

  static func renderFavorites(_ state: HomeState, _ context: HomeRenderContext) -> [String] {
    ["Favorites"]
  }

  static func renderHelp(_ state: HomeState, _ context: HomeRenderContext) -> [String] {
    ["Keys"]
  }
}
