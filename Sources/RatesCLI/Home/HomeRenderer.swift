import Foundation
import RateCore

/// Draws a ``HomeState`` as the lines of one frame. Pure: the same state and size give the
/// same frame; every line fits `width` columns and there are at most `height` lines.
public enum HomeRenderer {
  /// The frame for `state` in a window of `width` × `height`.
  public static func render(
    _ state: HomeState, width: Int, height: Int, style: Style, ascii: Bool
  ) -> [String] {
    let context = HomeRenderContext(width: width, height: height, style: style, ascii: ascii)
    switch state.screen {
    case .home: return renderList(state, context)
    case .favorites: return renderFavorites(state, context)
    case .help: return renderHelp(state, context)
    case .detail: return renderDetail(state, context)
    case .search: return renderSearch(state, context)
    case .pickBase, .pickQuote: return renderPicker(state, context)
    }
  }
}

/// The size and styling a frame is drawn with.
struct HomeRenderContext {
  var width: Int
  var height: Int
  var style: Style
  var ascii: Bool
}
