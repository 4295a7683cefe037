import RateCore

/// The two currency pickers of "add a pair".
struct PickerState: Equatable, Sendable {
  /// How far PageUp and PageDown move.
  static let page = 10

  /// The selected entry of the shown picker.
  var cursor = 0
  /// The name (`GBP-USD`) of the pair just added, for the home list to put its cursor on
  /// when a board with that row arrives; `nil` once it has (or when nothing was added).
  var addedPair: String?
}

/// One entry of a picker: a currency, and why it cannot be chosen (`nil` when it can).
struct PickerEntry: Equatable, Sendable {
  /// The currency code.
  var code: String
  /// `base`, `paired` or `all paired`; `nil` when the entry can be chosen.
  var disabledReason: String?

  /// Whether Enter may choose it.
  var selectable: Bool { disabledReason == nil }
}

extension HomeState {
  /// Opens the first picker (`p` on the list), on its first currency that can be chosen.
  mutating func openPairPicker() -> [HomeEffect] {
    picker = PickerState()
    screens.append(.pickBase)
    picker.cursor = firstSelectable(from: 0, step: 1) ?? 0
    return []
  }

  /// The shown picker's entries: every ECB currency; in the first, a currency already
  /// paired with every other is disabled ("all paired"); in the second, the base ("base")
  /// and every currency paired with it in either order ("paired").
  var pickerEntries: [PickerEntry] {
    let codes = FiatCurrencies.ordered(pickerCurrencies)
    switch screen {
    case .pickQuote(let base):
      return codes.map { code in
        if code == CurrencyCode(base).text { return PickerEntry(code: code, disabledReason: "base") }
        let paired = lists.pairs.contains { $0.matches(base, code) }
        return PickerEntry(code: code, disabledReason: paired ? "paired" : nil)
      }
    default:
      return codes.map { code in
        let open = codes.contains { other in
          other != code && !lists.pairs.contains { $0.matches(code, other) }
        }
        return PickerEntry(code: code, disabledReason: open ? nil : "all paired")
      }
    }
  }

  /// A picker's keys: ↑/↓ (and `j`/`k`, as on every screen), PageUp/PageDown, Home/End move
  /// to the nearest entry that can be chosen, never onto a disabled one; any other letter
  /// (`J`, `K` too) jumps to a code; Enter chooses exactly the highlighted entry.
  mutating func handlePickerKey(_ key: TerminalKey) -> [HomeEffect] {
    let count = pickerEntries.count
    switch key {
    case .escape, .character("q"), .character("Q"):  // no currency code starts with Q
      let leaving = screen
      let effects = back()
      if case .pickQuote(let base) = leaving {
        picker.cursor = FiatCurrencies.ordered(pickerCurrencies).firstIndex(of: base) ?? 0
      }
      return effects
    case .up, .character("k"): movePicker(to: picker.cursor - 1, step: -1)
    case .down, .character("j"): movePicker(to: picker.cursor + 1, step: 1)
    case .pageUp: movePicker(to: picker.cursor - PickerState.page, step: -1)
    case .pageDown: movePicker(to: picker.cursor + PickerState.page, step: 1)
    case .home: movePicker(to: 0, step: 1)
    case .end: movePicker(to: count - 1, step: -1)
    case .character("?"): openHelp()
    case .character(let letter): jump(to: letter)
    case .enter: return choose()
    default: break
    }
    return []
  }

  /// The first selectable entry from `start` on, going by `step`; `nil` when none.
  func firstSelectable(from start: Int, step: Int) -> Int? {
    let entries = pickerEntries
    var index = start
    while entries.indices.contains(index) {
      if entries[index].selectable { return index }
      index += step
    }
    return nil
  }

  /// Keeps the picker's cursor off disabled entries when the lists change under it (before
  /// the frame is drawn, so Enter always acts on what is shown): on the nearest one that can
  /// be chosen, below first.
  mutating func normalizePickerCursor() {
    guard screen == .pickBase || { if case .pickQuote = screen { true } else { false } }() else { return }
    let entries = pickerEntries
    guard !(entries.indices.contains(picker.cursor) && entries[picker.cursor].selectable) else { return }
    movePicker(to: picker.cursor, step: 1)
  }

  /// Moves to the selectable entry nearest `target` (clamped) going by `step`, else back
  /// the other way; stays put when there is none.
  private mutating func movePicker(to target: Int, step: Int) {
    let clamped = min(max(0, target), max(0, pickerEntries.count - 1))
    if let index = firstSelectable(from: clamped, step: step) ?? firstSelectable(from: clamped, step: -step) {
      picker.cursor = index
    }
  }

  /// A letter: the first selectable code starting with it, or the next one when the
  /// cursor is already on such a code (so typing `C` again walks CAD, CHF, CNY, CZK).
  private mutating func jump(to letter: Character) {
    let entries = pickerEntries
    let wanted = Character(letter.uppercased())
    let matching = entries.indices.filter { entries[$0].selectable && entries[$0].code.first == wanted }
    guard let first = matching.first else { return }
    let onOne = entries.indices.contains(picker.cursor) && entries[picker.cursor].code.first == wanted
    picker.cursor = onOne ? (matching.first { $0 > picker.cursor } ?? first) : first
  }

  /// Enter: the base opens the second picker; the quote adds the pair at the top of the
  /// user's pairs (shown at once; the driver stores it) and goes back to the list.
  private mutating func choose() -> [HomeEffect] {
    let entries = pickerEntries
    guard entries.indices.contains(picker.cursor), entries[picker.cursor].selectable else { return [] }
    let code = entries[picker.cursor].code
    guard case .pickQuote(let base) = screen else {
      screens.append(.pickQuote(base: code))
      picker.cursor = 0
      picker.cursor = firstSelectable(from: 0, step: 1) ?? 0
      return []
    }
    let pair = ConfiguredPair(base: base, quote: code, addedAt: now)
    lists.pairs.insert(pair, at: 0)
    screens.removeAll { if case .pickQuote = $0 { true } else { $0 == .pickBase } }
    picker = PickerState()
    picker.addedPair = pair.name
    if let index = listRows.firstIndex(where: { $0.kind == .pair && $0.id == pair.name }) {
      picker.addedPair = nil
      moveCursor(to: index)
    }
    let name = TerminalText.sanitize("\(base)/\(code)")
    announce(.addPair(base: base, quote: code), doing: "Adding \(name)", done: "Added \(name)")
    return [.addPair(base: base, quote: code)]
  }
}
