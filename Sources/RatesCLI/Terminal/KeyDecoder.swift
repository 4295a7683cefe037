import RateCore

/// A key read from the terminal in raw mode, before a screen gives it a meaning.
enum TerminalKey: Equatable, Sendable {
  /// `←` (`ESC [ D`, `ESC O D`).
  case left
  /// `→` (`ESC [ C`, `ESC O C`).
  case right
  /// `↑` (`ESC [ A`, `ESC O A`).
  case up
  /// `↓` (`ESC [ B`, `ESC O B`).
  case down
  /// `Home` (`ESC [ H`, `ESC O H`, `ESC [ 1 ~`, `ESC [ 7 ~`).
  case home
  /// `End` (`ESC [ F`, `ESC O F`, `ESC [ 4 ~`, `ESC [ 8 ~`).
  case end
  /// A lone `Esc`.
  case escape
  /// Ctrl-C (byte `0x03`: raw mode turns `ISIG` off, so no `SIGINT` is generated).
  case interrupt
  /// Ctrl-Z (byte `0x1A`: raw mode turns `ISIG` off, so no `SIGTSTP` is generated).
  case suspend
  /// A printable ASCII character (`0x20` to `0x7E`).
  case character(Character)
  /// Enter (`CR` or `LF`).
  case enter
  /// Backspace (`DEL` 0x7F or `BS` 0x08).
  case backspace
  /// Delete (`ESC [ 3 ~`).
  case delete
  /// Tab (0x09).
  case tab
  /// Page Up (`ESC [ 5 ~`).
  case pageUp
  /// Page Down (`ESC [ 6 ~`).
  case pageDown
  /// A mouse button press or drag at a 1-based cell (SGR reporting, `ESC [ < b ; x ; y M`).
  case mouse(column: Int, row: Int)
}

/// Decodes the bytes a terminal sends into ``TerminalKey``s; pure, for tests.
///
/// Recognised:
/// - arrows `ESC [ A`…`ESC [ D` and their application-mode forms `ESC O A`…`ESC O D`,
///   also with modifier parameters (`ESC [ 1 ; 5 D`);
/// - Home and End as `ESC [ H` / `ESC [ F`, `ESC O H` / `ESC O F`, `ESC [ 1 ~` / `ESC [ 4 ~`
///   and `ESC [ 7 ~` / `ESC [ 8 ~` (rxvt);
/// - Delete, Page Up and Page Down as `ESC [ 3 ~`, `ESC [ 5 ~` and `ESC [ 6 ~`;
/// - printable characters, ASCII or any other in UTF-8 (a character split across reads
///   waits for its last byte; invalid bytes and C1 controls are dropped), Enter (`CR`, `LF`), Backspace (`DEL`, `BS`), Tab,
///   Ctrl-C (`0x03`) and Ctrl-Z (`0x1A`);
/// - SGR mouse reports `ESC [ < b ; x ; y M`: a button press or drag is
///   ``TerminalKey/mouse(column:row:)``, the wheel is ``TerminalKey/up`` or
///   ``TerminalKey/down``, and a release (final `m`) means nothing. An X10 report
///   (`ESC [ M` and three bytes, from a terminal without SGR mode) is dropped whole.
///
/// Other bytes and complete escape sequences are dropped. A sequence split
/// across reads is kept until the rest arrives, so ``feed(_:)`` can be called
/// with whatever each `read(2)` returned. An `Esc` with nothing after it is
/// ambiguous until the input pauses: the caller calls ``flush()`` when no byte
/// followed within a short timeout, which turns it into ``TerminalKey/escape``.
struct KeyDecoder: Sendable {
  /// The bytes of an escape sequence not yet complete.
  private(set) var pending: [UInt8] = []

  /// A longer unfinished sequence is garbage and is dropped (a mouse report on a
  /// 1000-column window is 18 bytes).
  static let maximumSequenceLength = 32

  /// Whether an escape sequence (or a lone `Esc`) waits for more bytes.
  var hasPending: Bool { !pending.isEmpty }

  /// Decodes `bytes` after whatever was pending and returns the complete keys.
  mutating func feed(_ bytes: some Sequence<UInt8>) -> [TerminalKey] {
    pending.append(contentsOf: bytes)
    var keys: [TerminalKey] = []
    var index = 0
    while index < pending.count {
      if pending[index] >= 0x80 {
        // A character beyond ASCII, in UTF-8: kept until its last byte arrives.
        guard let (key, length) = Self.utf8Key(pending[index...]) else {
          pending.removeFirst(index)
          return keys
        }
        if let key { keys.append(key) }
        index += length
        continue
      }
      guard pending[index] == 0x1B else {
        if let key = Self.plainKey(pending[index]) { keys.append(key) }
        index += 1
        continue
      }
      switch Self.escapeSequence(in: pending[index...]) {
      case .incomplete:
        if pending.count - index > Self.maximumSequenceLength {
          index = pending.count  // garbage: drop it all
        } else {
          pending.removeFirst(index)
          return keys
        }
      case .complete(let key, let length):
        if let key { keys.append(key) }
        index += length
      }
    }
    pending.removeAll()
    return keys
  }

  /// Ends a pause in the input: a pending lone `Esc` becomes ``TerminalKey/escape``,
  /// and the bytes of an unfinished sequence after it are decoded as plain keys.
  mutating func flush() -> [TerminalKey] {
    guard !pending.isEmpty else { return [] }
    let bytes = pending
    pending.removeAll()
    return bytes.compactMap { $0 == 0x1B ? .escape : Self.plainKey($0) }
  }

  // MARK: - Parsing

  enum Parse: Equatable {
    case incomplete
    /// A sequence of `length` bytes; `nil` when it means nothing here.
    case complete(TerminalKey?, length: Int)
  }

  static func plainKey(_ byte: UInt8) -> TerminalKey? {
    switch byte {
    case 0x03: return .interrupt
    case 0x1A: return .suspend
    case 0x0D, 0x0A: return .enter
    case 0x7F, 0x08: return .backspace
    case 0x09: return .tab
    case 0x20...0x7E: return .character(Character(Unicode.Scalar(byte)))
    default: return nil
    }
  }

  /// The character whose UTF-8 encoding starts `bytes` (a non-ASCII lead byte), and its
  /// length; a `nil` key for a byte that starts no valid encoding (dropped, one byte) or a
  /// C1 control; `nil` when the encoding is not complete yet.
  static func utf8Key(_ bytes: ArraySlice<UInt8>) -> (TerminalKey?, length: Int)? {
    let lead = bytes[bytes.startIndex]
    let length: Int
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return (nil, 1)
    }
    let available = bytes.prefix(length)
    // A byte that is no continuation ends the encoding early: drop the lead byte alone.
    guard available.dropFirst().allSatisfy({ $0 & 0xC0 == 0x80 }) else { return (nil, 1) }
    guard available.count == length else { return nil }
    var iterator = available.makeIterator()
    var decoder = UTF8()
    guard case .scalarValue(let scalar) = decoder.decode(&iterator),
      scalar.properties.generalCategory != .control
    else { return (nil, length) }
    return (.character(Character(scalar)), length)
  }

  /// Parses the sequence starting with the `ESC` at `bytes.startIndex`.
  static func escapeSequence(in bytes: ArraySlice<UInt8>) -> Parse {
    let start = bytes.startIndex
    guard bytes.count >= 2 else { return .incomplete }
    let introducer = bytes[start + 1]
    switch introducer {
    case UInt8(ascii: "["):
      // CSI: parameter and intermediate bytes 0x20-0x3F, then a final byte 0x40-0x7E.
      var index = start + 2
      while index < bytes.endIndex {
        let byte = bytes[index]
        if (0x40...0x7E).contains(byte) {
          if byte == UInt8(ascii: "M") && index == start + 2 {
            // X10 mouse: three raw bytes follow, which must not be read as keys.
            return bytes.count >= 6 ? .complete(nil, length: 6) : .incomplete
          }
          let parameters = String(decoding: bytes[(start + 2)..<index], as: UTF8.self)
          return .complete(csiKey(final: byte, parameters: parameters), length: index - start + 1)
        }
        guard (0x20...0x3F).contains(byte) else {
          // Not a valid CSI: drop the introducer and go on from this byte.
          return .complete(nil, length: index - start)
        }
        index += 1
      }
      return .incomplete
    case UInt8(ascii: "O"):
      guard bytes.count >= 3 else { return .incomplete }
      return .complete(letterKey(bytes[start + 2]), length: 3)
    default:
      // `ESC` before anything else (another `ESC`, a letter typed with Alt) is a lone Esc.
      return .complete(.escape, length: 1)
    }
  }

  static func csiKey(final: UInt8, parameters: String) -> TerminalKey? {
    if parameters.hasPrefix("<") {
      return mouseKey(final: final, parameters: parameters.dropFirst())
    }
    guard final == UInt8(ascii: "~") else { return letterKey(final) }
    switch parameters.split(separator: ";").first {
    case "1", "7": return .home
    case "4", "8": return .end
    case "3": return .delete
    case "5": return .pageUp
    case "6": return .pageDown
    default: return nil
    }
  }

  /// An SGR mouse report, `b;x;y` then `M` (press or drag) or `m` (release).
  static func mouseKey(final: UInt8, parameters: Substring) -> TerminalKey? {
    let fields = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
    guard final == UInt8(ascii: "M"), fields.count == 3,
      let button = fields[0], let column = fields[1], let row = fields[2], column >= 1, row >= 1
    else { return nil }
    if button & 64 != 0 {
      // The wheel: 64 up, 65 down (modifier bits added); sideways wheels mean nothing.
      switch button & 3 {
      case 0: return .up
      case 1: return .down
      default: return nil
      }
    }
    // Buttons 0-2 pressed or dragged (32 added for a drag); 3 is motion with no button.
    guard button & 3 != 3, button < 128 else { return nil }
    return .mouse(column: column, row: row)
  }

  static func letterKey(_ byte: UInt8) -> TerminalKey? {
    switch byte {
    case UInt8(ascii: "A"): return .up
    case UInt8(ascii: "B"): return .down
    case UInt8(ascii: "D"): return .left
    case UInt8(ascii: "C"): return .right
    case UInt8(ascii: "H"): return .home
    case UInt8(ascii: "F"): return .end
    default: return nil
    }
  }
}
