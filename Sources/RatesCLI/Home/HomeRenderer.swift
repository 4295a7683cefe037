import RateCore

/// Draws a ``HomeState`` as the lines of one frame. Pure: the same state and size give the
/// same frame; every line fits `width` columns and there are at most `height` lines.
enum HomeRenderer {
  /// The frame for `state` in a window of `width` × `height`.
  static func render(
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

extension HomeRenderer {
  /// A whole frame: `header` on the first line, `body` below it (cut to fit), and `footer`
  /// (the status and key hints) on the last line; every line cut to the width.
  static func compose(
    header: String, body: [String], footer: String, _ context: HomeRenderContext
  ) -> [String] {
    let room = max(0, context.height - 2)
    var lines = [header] + Array(body.prefix(room))
    if context.height > 1 {
      lines += Array(repeating: "", count: max(0, room - body.count))
      lines.append(footer)
    }
    return lines.prefix(max(1, context.height)).map {
      TerminalText.truncate($0, toWidth: context.width, ascii: context.ascii)
    }
  }
}
