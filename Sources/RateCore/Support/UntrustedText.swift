/// Text that came from outside `rates` (a provider, a cache or data file, the user)
/// and may carry terminal escape sequences or control characters.
///
/// Providers clean what they decode with ``sanitize(_:)``; front ends clean
/// again where they display, and measure with ``segments(of:)``.
public enum UntrustedText {
  /// Removes escape sequences and control characters from `text` so it can be printed safely.
  ///
  /// Text from providers and caches may carry escape sequences that move the
  /// cursor, set the window title or rewrite the screen, or bidi controls
  /// that reorder what a reader sees. This removes:
  /// - CSI sequences (`ESC [` … final byte, and the 8-bit `U+009B` form);
  /// - OSC, DCS, SOS, PM and APC strings (`ESC ]`, `ESC P`, `ESC X`, `ESC ^`,
  ///   `ESC _` and their 8-bit forms) up to `BEL`, `ESC \` or `U+009C`; an
  ///   unterminated string swallows the rest of the text, as a terminal would;
  /// - other escape sequences (`ESC` + intermediates + one final byte);
  /// - every other C0 control, `DEL` and C1 control;
  /// - the bidi embedding, override and isolate controls U+202A–U+202E and
  ///   U+2066–U+2069.
  ///
  /// Tab, line feed, carriage return (a CR LF pair counts once) and the
  /// Unicode line and paragraph separators U+2028/U+2029 become one space each.
  public static func sanitize(_ text: String) -> String {
    var output = String.UnicodeScalarView()
    scan(text) { scalar in
      switch scalar.value {
      case 0x09, 0x0A, 0x0D, 0x2028, 0x2029: output.append(" ")
      case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: break
      default: output.append(scalar)
      }
    }
    return String(output)
  }
  /// The scalars of `text` outside escape sequences (controls included).
  public static func visibleScalars(of text: String) -> String {
    var visible = String.UnicodeScalarView()
    scan(text) { visible.append($0) }
    return String(visible)
  }

  // MARK: - Scanning

  /// A piece of scanned text.
  public enum Segment: Equatable, Sendable {
    /// A whole escape sequence.
    case escape(String)
    /// One character outside escape sequences.
    case text(Character)
  }

  /// Splits `text` into escape sequences and the remaining characters (controls included).
  public static func segments(of text: String) -> [Segment] {
    var result: [Segment] = []
    var pending = String.UnicodeScalarView()
    var escape = String.UnicodeScalarView()
    func flushText() {
      for character in String(pending) { result.append(.text(character)) }
      pending = String.UnicodeScalarView()
    }
    scan(
      text,
      onText: { pending.append($0) },
      onEscape: {
        flushText()
        escape.append($0)
      },
      onEscapeEnd: {
        result.append(.escape(String(escape)))
        escape = String.UnicodeScalarView()
      })
    flushText()
    if !escape.isEmpty { result.append(.escape(String(escape))) }
    return result
  }

  private static func scan(_ text: String, onText: (Unicode.Scalar) -> Void) {
    scan(text, onText: onText, onEscape: { _ in }, onEscapeEnd: {})
  }

  private enum State {
    case text
    case escape  // after ESC
    case escapeIntermediate  // ESC followed by 0x20–0x2F bytes
    case csi
    case string  // OSC, DCS, SOS, PM, APC body
    case stringEscape  // ESC inside a string, maybe the start of ST
  }

  /// What a scalar does in the state it arrives in.
  private enum Action {
    /// A text scalar.
    case text
    /// Part of an escape sequence.
    case escape
    /// The last scalar of an escape sequence.
    case escapeAndEnd
    /// Ends a malformed sequence; the scalar is read again as text.
    case endThenReread
  }

  /// Walks `text` once, reporting text scalars and the scalars of escape sequences.
  private static func scan(
    _ text: String, onText: (Unicode.Scalar) -> Void, onEscape: (Unicode.Scalar) -> Void,
    onEscapeEnd: () -> Void
  ) {
    var state = State.text
    var crPending = false
    for scalar in text.unicodeScalars {
      let value = scalar.value
      // A CR LF pair is one line break: drop the LF.
      if crPending {
        crPending = false
        if state == .text, value == 0x0A { continue }
      }
      var (next, action) = transition(from: state, on: value)
      if case .endThenReread = action {
        onEscapeEnd()
        (next, action) = transition(from: .text, on: value)
      }
      state = next
      switch action {
      case .text:
        if value == 0x0D { crPending = true }
        onText(scalar)
      case .escape:
        onEscape(scalar)
      case .escapeAndEnd:
        onEscape(scalar)
        onEscapeEnd()
      case .endThenReread:
        break  // never from the text state
      }
    }
    if state != .text { onEscapeEnd() }
  }

  /// The ECMA-48 state machine: the next state and what the scalar is.
  private static func transition(from state: State, on value: UInt32) -> (State, Action) {
    switch state {
    case .text:
      switch value {
      case 0x1B: return (.escape, .escape)
      case 0x9B: return (.csi, .escape)
      case 0x90, 0x98, 0x9D, 0x9E, 0x9F: return (.string, .escape)
      default: return (.text, .text)
      }
    case .escape:
      switch value {
      case 0x5B: return (.csi, .escape)  // [
      case 0x5D, 0x50, 0x58, 0x5E, 0x5F: return (.string, .escape)  // ] P X ^ _
      case 0x20...0x2F: return (.escapeIntermediate, .escape)
      case 0x30...0x7E: return (.text, .escapeAndEnd)
      default: return (.text, .endThenReread)  // a lone ESC is dropped
      }
    case .escapeIntermediate:
      switch value {
      case 0x20...0x2F: return (.escapeIntermediate, .escape)
      case 0x30...0x7E: return (.text, .escapeAndEnd)
      default: return (.text, .endThenReread)
      }
    case .csi:
      switch value {
      case 0x20...0x3F: return (.csi, .escape)  // parameter and intermediate bytes
      case 0x40...0x7E: return (.text, .escapeAndEnd)  // final byte
      default: return (.text, .endThenReread)  // malformed
      }
    case .string:
      switch value {
      case 0x07, 0x9C: return (.text, .escapeAndEnd)
      case 0x1B: return (.stringEscape, .escape)
      default: return (.string, .escape)
      }
    case .stringEscape:
      switch value {
      case 0x5C: return (.text, .escapeAndEnd)  // ESC \ is the string terminator
      case 0x1B: return (.stringEscape, .escape)
      default: return (.string, .escape)
      }
    }
  }
}
