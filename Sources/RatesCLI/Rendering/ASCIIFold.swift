/// `--ascii` means ASCII: every character of the text a command writes for a person (its
/// tables, notes, help and errors; never a `--json` document or an export, whose bytes are
/// data) folded to ASCII at the one place it is written (``CommandContext/foldingToASCII()``).
enum ASCIIFold {
  /// Symbols the program itself writes, by what they mean.
  static let symbols: [Unicode.Scalar: String] = [
    "—": "-", "–": "-", "‐": "-", "−": "-", "…": "...", "≈": "~", "×": "x", "·": ".",
    "•": "*", "★": "*", "☆": "*", "←": "<-", "→": "->", "↑": "^", "↓": "v", "▲": "^", "▼": "v",
    "‘": "'", "’": "'", "“": "\"", "”": "\"", "«": "\"", "»": "\"", "°": "o", "±": "+/-",
    "≤": "<=", "≥": ">=", "€": "EUR", "£": "GBP", "¥": "JPY", "\u{00A0}": " ", "ß": "ss",
  ]

  /// `text` with each non-ASCII character replaced: a symbol by ``symbols``, a Latin letter
  /// with marks by its letter (`ó` is `o`, `Ł` is `L`, from its Unicode name), a combining
  /// mark by nothing, anything else by `?`.
  static func folded(_ text: String) -> String {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
    var result = ""
    result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
      if scalar.isASCII {
        result.unicodeScalars.append(scalar)
      } else if let symbol = symbols[scalar] {
        result += symbol
      } else if scalar.properties.generalCategory == .nonspacingMark {
        continue
      } else {
        result += latinLetter(scalar) ?? "?"
      }
    }
    return result
  }

  /// The letter a Latin letter with marks stands for: `LATIN SMALL LETTER O WITH ACUTE` is
  /// `o`, `LATIN CAPITAL LETTER L WITH STROKE` is `L`.
  static func latinLetter(_ scalar: Unicode.Scalar) -> String? {
    guard let name = scalar.properties.name else { return nil }
    for (prefix, upper) in [("LATIN SMALL LETTER ", false), ("LATIN CAPITAL LETTER ", true)] {
      guard name.hasPrefix(prefix) else { continue }
      let letter = name.dropFirst(prefix.count).prefix { $0 != " " }
      guard letter.count == 1, let first = letter.first, first.isASCII, first.isLetter else {
        return nil
      }
      return upper ? String(first) : first.lowercased()
    }
    return nil
  }
}

extension CommandContext {
  /// This context writing ASCII only (``ASCIIFold``): standard error always, standard output
  /// and the pager when `textOut` (the text form, not a document or an export).
  func foldingToASCII(textOut: Bool) -> CommandContext {
    var folded = self
    let (out, err, page) = (writeOut, writeErr, self.page)
    folded.writeErr = { err(ASCIIFold.folded($0)) }
    if textOut {
      folded.writeOut = { out(ASCIIFold.folded($0)) }
      folded.page = { page(ASCIIFold.folded($0)) }
    }
    return folded
  }
}
