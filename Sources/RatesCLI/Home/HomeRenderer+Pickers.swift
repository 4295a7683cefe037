import RateCore

// The pair pickers' frames.
extension HomeRenderer {
  static func renderPicker(_ state: HomeState, _ context: HomeRenderContext) -> [String] {
    let style = context.style
    let header: String
    if case .pickQuote(let base) = state.screen {
      header = style.bold("Add a pair: \(TerminalText.sanitize(base))/?") + "  second currency"
    } else {
      header = style.bold("Add a pair") + "  first currency"
    }
    let arrows = context.ascii ? "Up/Down" : "↑/↓"
    let keys = firstFitting(
      ["\(arrows) move  A-Z jump  Enter choose  q back", "\(arrows) A-Z  Enter choose  q back"],
      context.width)
    let footer = pauseOrFailureLine(state.status, now: state.now, context)?.styled ?? style.dim(keys)
    return compose(
      header: header, body: pickerRows(state, room: max(1, context.height - 2), context),
      footer: footer, context)
  }

  /// The entries that fit in `room` lines, scrolled to keep the cursor in view; one that
  /// cannot be chosen is dimmed and says why.
  static func pickerRows(_ state: HomeState, room: Int, _ context: HomeRenderContext) -> [String] {
    let entries = state.pickerEntries
    let cursor = state.picker.cursor
    let first = min(max(0, cursor - room + 1), max(0, entries.count - room))
    let marker = context.ascii ? ">" : "›"
    var table = TextTable(
      columns: [
        .init("", priority: TextTable.required), .init("", priority: TextTable.required),
        .init("", fit: .shrinks, priority: 1), .init("", priority: TextTable.required),
      ], showsHeader: false)
    let shown = Array(entries.indices).dropFirst(first).prefix(room)
    for index in shown {
      let entry = entries[index]
      let name = asciiFolded(FiatCurrencies.ecb[entry.code] ?? "", context.ascii)
      table.append([
        index == cursor ? marker : " ", TerminalText.sanitize(entry.code), name,
        entry.disabledReason ?? "",
      ])
    }
    return zip(shown, table.render(maxWidth: context.width, ascii: context.ascii)).map {
      index, line in
      if !entries[index].selectable { return context.style.dim(line) }
      return index == cursor ? context.style.bold(line) : line
    }
  }
}

extension HomeRenderer {
  /// The first of `texts` that fits `width` columns, else the last.
  static func firstFitting(_ texts: [String], _ width: Int) -> String {
    texts.first { TerminalText.displayWidth($0) <= width } ?? texts.last ?? ""
  }

  /// Text for an ASCII terminal: accents dropped (`Króna` is `Krona`), anything else
  /// beyond ASCII written `?`; unchanged when not `ascii`.
  static func asciiFolded(_ text: String, _ ascii: Bool) -> String {
    guard ascii else { return text }
    var folded = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if scalar.isASCII {
        folded.append(scalar)
      } else if let base = latinBase(scalar) {
        folded.append(base)
      } else if scalar.properties.generalCategory != .nonspacingMark {
        folded.append("?")
      }
    }
    return String(folded)
  }

  /// The plain letter of an accented Latin one, from its Unicode name
  /// (`LATIN SMALL LETTER O WITH ACUTE` is `o`); nil for anything else.
  private static func latinBase(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
    guard let name = scalar.properties.name else { return nil }
    for (prefix, lower) in [("LATIN SMALL LETTER ", true), ("LATIN CAPITAL LETTER ", false)] {
      guard name.hasPrefix(prefix) else { continue }
      let rest = name.dropFirst(prefix.count)
      guard rest.dropFirst().hasPrefix(" WITH "), let letter = rest.first, letter.isASCII
      else { return nil }
      return (lower ? String(letter).lowercased() : String(letter)).unicodeScalars.first
    }
    return nil
  }
}
