import Testing

@testable import RateCore
@testable import RatesCLI
import RatesTestSupport

@Suite struct KeyDecoderTests {
  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  static func decode(_ text: String) -> [ExplorerKey] {
    var decoder = KeyDecoder()
    return decoder.feed(bytes(text)) + decoder.flush()
  }

  @Test(arguments: [
    ("\u{1B}[D", ExplorerKey.left), ("\u{1B}[C", .right), ("\u{1B}OD", .left), ("\u{1B}OC", .right),
    ("\u{1B}[H", .home), ("\u{1B}[F", .end), ("\u{1B}[1~", .home), ("\u{1B}[4~", .end),
    ("\u{1B}OH", .home), ("\u{1B}OF", .end), ("\u{1B}[7~", .home), ("\u{1B}[8~", .end),
    ("\u{1B}[1;5D", .left), ("\u{1B}[1;2C", .right),
    ("h", .left), ("l", .right), ("g", .home), ("G", .end), ("q", .quit), ("Q", .quit),
    ("\u{03}", .interrupt),
  ])
  func everySequenceDecodesInOneRead(sequence: String, key: ExplorerKey) {
    var decoder = KeyDecoder()
    #expect(decoder.feed(Self.bytes(sequence)) == [key])
    #expect(!decoder.hasPending)
  }

  @Test(arguments: ["\u{1B}[D", "\u{1B}OC", "\u{1B}[1~", "\u{1B}[4~", "\u{1B}[1;5D", "\u{1B}[F"])
  func sequencesSplitAtEveryByteDecodeOnce(sequence: String) {
    let bytes = Self.bytes(sequence)
    for split in 1..<bytes.count {
      var decoder = KeyDecoder()
      let first = decoder.feed(bytes[..<split])
      #expect(first.isEmpty, "split at \(split)")
      #expect(decoder.hasPending)
      let second = decoder.feed(bytes[split...])
      #expect(second.count == 1, "split at \(split)")
      #expect(!decoder.hasPending)
    }
    // One byte per read.
    var decoder = KeyDecoder()
    let keys = bytes.flatMap { decoder.feed([$0]) }
    #expect(keys.count == 1)
  }

  @Test func severalKeysInOneRead() {
    #expect(
      Self.decode("hh\u{1B}[D\u{1B}OCgG\u{1B}[4~l") == [
        .left, .left, .left, .right, .home, .end, .end, .right,
      ])
  }

  @Test func loneEscapeWaitsForAPause() {
    var decoder = KeyDecoder()
    #expect(decoder.feed([0x1B]).isEmpty)
    #expect(decoder.hasPending)
    #expect(decoder.flush() == [.escape])
    #expect(!decoder.hasPending)
    #expect(decoder.flush().isEmpty)
  }

  @Test func escapeBeforeAnotherEscapeOrALetterIsALoneEscape() {
    var decoder = KeyDecoder()
    #expect(decoder.feed(Self.bytes("\u{1B}\u{1B}[D")) == [.escape, .left])
    #expect(decoder.feed(Self.bytes("\u{1B}q")) == [.escape, .quit])
  }

  @Test func anUnfinishedSequenceAtAPauseIsEscapeThenPlainBytes() {
    var decoder = KeyDecoder()
    #expect(decoder.feed(Self.bytes("\u{1B}[")).isEmpty)
    #expect(decoder.flush() == [.escape])
    #expect(decoder.feed(Self.bytes("\u{1B}O")).isEmpty)
    #expect(decoder.flush() == [.escape])
  }

  @Test func unknownBytesAndSequencesAreDropped() {
    #expect(Self.decode("xyz\u{1B}[A\u{1B}[B\u{1B}[5~\u{1B}OP\u{1B}[200~é\r\n") == [])
    #expect(Self.decode("a\u{1B}[Ah") == [.left])
  }

  @Test func anInvalidCSIByteEndsTheSequence() {
    // 0x01 cannot appear inside a CSI sequence: the introducer is dropped and `l` still counts.
    #expect(Self.decode("\u{1B}[\u{01}l") == [.right])
  }

  @Test func overlongGarbageIsDropped() {
    var decoder = KeyDecoder()
    let garbage =
      [UInt8]([0x1B, UInt8(ascii: "[")]) + Array(repeating: UInt8(ascii: "1"), count: 40)
    #expect(decoder.feed(garbage).isEmpty)
    #expect(!decoder.hasPending)
    #expect(decoder.feed(Self.bytes("q")) == [.quit])
  }
}
