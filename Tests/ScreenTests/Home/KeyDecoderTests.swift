import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

@Suite struct KeyDecoderTests {
  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  static func decode(_ text: String) -> [TerminalKey] {
    var decoder = KeyDecoder()
    return decoder.feed(bytes(text)) + decoder.flush()
  }

  @Test(arguments: [
    ("\u{1B}[D", TerminalKey.left), ("\u{1B}[C", .right), ("\u{1B}OD", .left), ("\u{1B}OC", .right),
    ("\u{1B}[A", .up), ("\u{1B}[B", .down), ("\u{1B}OA", .up), ("\u{1B}OB", .down),
    ("\u{1B}[H", .home), ("\u{1B}[F", .end), ("\u{1B}[1~", .home), ("\u{1B}[4~", .end),
    ("\u{1B}OH", .home), ("\u{1B}OF", .end), ("\u{1B}[7~", .home), ("\u{1B}[8~", .end),
    ("\u{1B}[1;5D", .left), ("\u{1B}[1;2C", .right),
    ("h", .character("h")), ("q", .character("q")), ("Q", .character("Q")), (" ", .character(" ")),
    ("~", .character("~")), ("\u{03}", .interrupt), ("\u{1A}", .suspend),
  ])
  func everySequenceDecodesInOneRead(sequence: String, key: TerminalKey) {
    var decoder = KeyDecoder()
    expectEqual(decoder.feed(Self.bytes(sequence)), [key])
    expect(!decoder.hasPending)
  }

  @Test(arguments: ["\u{1B}[D", "\u{1B}OC", "\u{1B}[1~", "\u{1B}[4~", "\u{1B}[1;5D", "\u{1B}[F"])
  func sequencesSplitAtEveryByteDecodeOnce(sequence: String) {
    let bytes = Self.bytes(sequence)
    for split in 1..<bytes.count {
      var decoder = KeyDecoder()
      let first = decoder.feed(bytes[..<split])
      expect(first.isEmpty, "split at \(split)")
      expect(decoder.hasPending)
      let second = decoder.feed(bytes[split...])
      expectEqual(second.count, 1, "split at \(split)")
      expect(!decoder.hasPending)
    }
    // One byte per read.
    var decoder = KeyDecoder()
    let keys = bytes.flatMap { decoder.feed([$0]) }
    expectEqual(keys.count, 1)
  }

  @Test func severalKeysInOneRead() {
    expectEqual(
      Self.decode("hh\u{1B}[D\u{1B}OCgG\u{1B}[4~l"),
      [
        .character("h"), .character("h"), .left, .right, .character("g"), .character("G"), .end,
        .character("l"),
      ])
  }

  @Test func loneEscapeWaitsForAPause() {
    var decoder = KeyDecoder()
    expect(decoder.feed([0x1B]).isEmpty)
    expect(decoder.hasPending)
    expectEqual(decoder.flush(), [.escape])
    expect(!decoder.hasPending)
    expect(decoder.flush().isEmpty)
  }

  @Test func escapeBeforeAnotherEscapeOrALetterIsALoneEscape() {
    var decoder = KeyDecoder()
    expectEqual(decoder.feed(Self.bytes("\u{1B}\u{1B}[D")), [.escape, .left])
    expectEqual(decoder.feed(Self.bytes("\u{1B}q")), [.escape, .character("q")])
  }

  @Test func anUnfinishedSequenceAtAPauseIsEscapeThenPlainBytes() {
    var decoder = KeyDecoder()
    expect(decoder.feed(Self.bytes("\u{1B}[")).isEmpty)
    expectEqual(decoder.flush(), [.escape, .character("[")])
    expect(decoder.feed(Self.bytes("\u{1B}O")).isEmpty)
    expectEqual(decoder.flush(), [.escape, .character("O")])
  }

  @Test func unknownBytesAndSequencesAreDropped() {
    expectEqual(Self.decode("\u{1B}[2~\u{1B}OP\u{1B}[200~\u{01}\u{1B}[15~"), [])
    expectEqual(Self.decode("\u{1B}[Zh"), [.character("h")])
  }

  @Test func charactersBeyondASCIIDecodeFromUTF8EvenSplitAcrossReads() {
    expectEqual(Self.decode("é ü 中 😀"), ["é", " ", "ü", " ", "中", " ", "😀"].map { TerminalKey.character($0) })
    for text in ["é", "中", "😀"] {
      let bytes = Self.bytes(text)
      for split in 1..<bytes.count {
        var decoder = KeyDecoder()
        expect(decoder.feed(bytes[..<split]).isEmpty)
        expect(decoder.hasPending)
        expectEqual(decoder.feed(bytes[split...]), [.character(Character(text))], "\(text) split at \(split)")
        expect(!decoder.hasPending)
      }
    }
  }

  @Test func invalidUTF8AndC1ControlsAreDropped() {
    var decoder = KeyDecoder()
    // A stray continuation byte, a lead byte cut short by a letter, an overlong form, a C1 control.
    expectEqual(
      decoder.feed([0x80, 0xC3, UInt8(ascii: "a"), 0xC0, 0xAF, 0xC2, 0x9B, UInt8(ascii: "b")]),
      [
        .character("a"), .character("b"),
      ])
    expect(!decoder.hasPending)
    expect(decoder.feed([0xE4, 0xB8]).isEmpty)
    expectEqual(decoder.flush(), [])
    expectEqual(decoder.feed(Self.bytes("q")), [.character("q")])
  }

  @Test func anInvalidCSIByteEndsTheSequence() {
    // 0x01 cannot appear inside a CSI sequence: the introducer is dropped and `l` still counts.
    expectEqual(Self.decode("\u{1B}[\u{01}l"), [.character("l")])
  }

  // MARK: - The home screen's keys

  @Test(arguments: [
    ("\r", TerminalKey.enter), ("\n", .enter), ("\u{7F}", .backspace), ("\u{08}", .backspace),
    ("\t", .tab), ("\u{1B}[3~", .delete), ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown),
    ("\u{1B}[3;5~", .delete), ("\u{1B}[<0;12;7M", .mouse(column: 12, row: 7)),
    ("\u{1B}[<32;13;7M", .mouse(column: 13, row: 7)), ("\u{1B}[<2;1;1M", .mouse(column: 1, row: 1)),
    ("\u{1B}[<64;10;5M", .up), ("\u{1B}[<65;10;5M", .down), ("\u{1B}[<80;10;5M", .up),
    ("\u{1B}[<0;1000;1000M", .mouse(column: 1000, row: 1000)),
  ])
  func homeKeysDecodeInOneRead(sequence: String, key: TerminalKey) {
    var decoder = KeyDecoder()
    expectEqual(decoder.feed(Self.bytes(sequence)), [key])
    expect(!decoder.hasPending)
  }

  @Test(arguments: ["\u{1B}[5~", "\u{1B}[3~", "\u{1B}[<0;12;7M", "\u{1B}[<65;3;4M"])
  func homeSequencesSplitAtEveryByteDecodeOnce(sequence: String) {
    let bytes = Self.bytes(sequence)
    for split in 1..<bytes.count {
      var decoder = KeyDecoder()
      expect(decoder.feed(bytes[..<split]).isEmpty, "split at \(split)")
      expectEqual(decoder.feed(bytes[split...]).count, 1, "split at \(split)")
      expect(!decoder.hasPending)
    }
  }

  @Test func mouseReleasesMotionAndMalformedReportsAreDroppedWithoutTheNextKey() {
    expectEqual(Self.decode("\u{1B}[<0;12;7mq"), [.character("q")], "release")
    expectEqual(Self.decode("\u{1B}[<35;12;7Mq"), [.character("q")], "motion, no button")
    expectEqual(Self.decode("\u{1B}[<66;12;7Mq"), [.character("q")], "sideways wheel")
    expectEqual(Self.decode("\u{1B}[<0;12Mq"), [.character("q")], "two fields")
    expectEqual(Self.decode("\u{1B}[<0;;7Mq"), [.character("q")], "empty field")
    expectEqual(Self.decode("\u{1B}[<0;0;7Mq"), [.character("q")], "column 0")
    expectEqual(Self.decode("\u{1B}[<1:2;1;1Mq"), [.character("q")], "not a number")
    expectEqual(Self.decode("\u{1B}[<0;1;1\u{01}q"), [.character("q")], "broken off")
  }

  @Test func anX10MouseReportIsDroppedWhole() {
    // ESC [ M, then button, column and row as bytes + 32: `#`, `!`, `q` must not become keys.
    expectEqual(Self.decode("\u{1B}[M#!qj"), [.character("j")])
    var decoder = KeyDecoder()
    expect(decoder.feed(Self.bytes("\u{1B}[M ")).isEmpty)
    expectEqual(decoder.feed(Self.bytes("!!k")), [.character("k")])
  }

  @Test func homeKeysAmongOthersInOneRead() {
    expectEqual(
      Self.decode("ab\u{7F}\r\u{1B}[6~\t\u{1B}[<0;3;4M\u{1B}[<0;3;4mx"),
      [
        .character("a"), .character("b"), .backspace, .enter, .pageDown, .tab,
        .mouse(column: 3, row: 4), .character("x"),
      ])
  }

  @Test func overlongGarbageIsDropped() {
    var decoder = KeyDecoder()
    let garbage =
      [UInt8]([0x1B, UInt8(ascii: "[")]) + Array(repeating: UInt8(ascii: "1"), count: 40)
    expect(decoder.feed(garbage).isEmpty)
    expect(!decoder.hasPending)
    expectEqual(decoder.feed(Self.bytes("q")), [.character("q")])
  }
}

/// The explorer's meaning of each terminal key.
@Suite struct ExplorerKeyTests {
  @Test(arguments: [
    (TerminalKey.left, ExplorerKey.left), (.character("h"), .left), (.right, .right),
    (.character("l"), .right), (.home, .home), (.character("g"), .home), (.end, .end),
    (.character("G"), .end), (.character("q"), .quit), (.character("Q"), .quit),
    (.escape, .escape), (.interrupt, .interrupt),
  ])
  func keysMapToExplorerKeys(key: TerminalKey, expected: ExplorerKey) {
    expectEqual(ExplorerKey(key), expected)
  }

  @Test(arguments: [TerminalKey.up, .down, .suspend, .character("x"), .character("H")])
  func otherKeysMeanNothing(key: TerminalKey) {
    expectEqual(ExplorerKey(key), nil)
  }
}
