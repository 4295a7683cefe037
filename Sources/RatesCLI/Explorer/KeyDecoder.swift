import RateCore
/// A key the history explorer acts on.
public enum ExplorerKey: Equatable, Sendable {
  /// `←`, `h`: one day back.
  case left
  /// `→`, `l`: one day forward.
  case right
  /// `Home`, `g`: the first day.
  case home
  /// `End`, `G`: the last day.
  case end
  /// `q` or `Q`: quit.
  case quit
  /// A lone `Esc`: quit.
  case escape
  /// `Ctrl-C` (byte `0x03`, as raw mode delivers it): quit as interrupted.
  case interrupt
}

/// Decodes the bytes a terminal sends into ``ExplorerKey``s; pure, for tests.
///
/// Recognised:
/// - arrows `ESC [ D` / `ESC [ C` and their application-mode forms `ESC O D` / `ESC O C`,
///   also with modifier parameters (`ESC [ 1 ; 5 D`);
/// - Home and End as `ESC [ H` / `ESC [ F`, `ESC O H` / `ESC O F`, `ESC [ 1 ~` / `ESC [ 4 ~`
///   and `ESC [ 7 ~` / `ESC [ 8 ~` (rxvt);
/// - `h`, `l`, `g`, `G`, `q`, `Q` and Ctrl-C (`0x03`).
///
/// Other bytes and complete escape sequences are dropped. A sequence split
/// across reads is kept until the rest arrives, so ``feed(_:)`` can be called
/// with whatever each `read(2)` returned. An `Esc` with nothing after it is
/// ambiguous until the input pauses: the caller calls ``flush()`` when no byte
/// followed within a short timeout, which turns it into ``ExplorerKey/escape``.
public struct KeyDecoder: Sendable {
  /// The bytes of an escape sequence not yet complete.
  public private(set) var pending: [UInt8] = []

  /// A longer unfinished sequence is garbage and is dropped.
  static let maximumSequenceLength = 16

  /// Creates a decoder with nothing pending.
  public init() {}

  /// Whether an escape sequence (or a lone `Esc`) waits for more bytes.
  public var hasPending: Bool { !pending.isEmpty }

  /// Decodes `bytes` after whatever was pending and returns the complete keys.
  public mutating func feed(_ bytes: some Sequence<UInt8>) -> [ExplorerKey] {
    pending.append(contentsOf: bytes)
    var keys: [ExplorerKey] = []
    var index = 0
    while index < pending.count {
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

  /// Ends a pause in the input: a pending lone `Esc` becomes ``ExplorerKey/escape``,
  /// and the bytes of an unfinished sequence after it are decoded as plain keys.
  public mutating func flush() -> [ExplorerKey] {
    guard !pending.isEmpty else { return [] }
    let bytes = pending
    pending.removeAll()
    return bytes.compactMap { $0 == 0x1B ? .escape : Self.plainKey($0) }
  }

  // MARK: - Parsing

  enum Parse: Equatable {
    case incomplete
    /// A sequence of `length` bytes; `nil` when it means nothing here.
    case complete(ExplorerKey?, length: Int)
  }

  static func plainKey(_ byte: UInt8) -> ExplorerKey? {
    switch byte {
    case 0x03: return .interrupt
    case UInt8(ascii: "h"): return .left
    case UInt8(ascii: "l"): return .right
    case UInt8(ascii: "g"): return .home
    case UInt8(ascii: "G"): return .end
    case UInt8(ascii: "q"), UInt8(ascii: "Q"): return .quit
    default: return nil
    }
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

  static func csiKey(final: UInt8, parameters: String) -> ExplorerKey? {
    guard final == UInt8(ascii: "~") else { return letterKey(final) }
    switch parameters.split(separator: ";").first {
    case "1", "7": return .home
    case "4", "8": return .end
    default: return nil
    }
  }

  static func letterKey(_ byte: UInt8) -> ExplorerKey? {
    switch byte {
    case UInt8(ascii: "D"): return .left
    case UInt8(ascii: "C"): return .right
    case UInt8(ascii: "H"): return .home
    case UInt8(ascii: "F"): return .end
    default: return nil
    }
  }
}
