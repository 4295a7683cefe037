import Foundation

// Streaming replies of `LoopbackServer` for hostile-server tests: a body that
// trickles in byte by byte, and a chunked body that never ends.

extension ServerState {
  /// Sends a `.trickle` or `.endlessChunked` reply; the connection is never
  /// reused afterwards.
  func stream(_ fd: Int32, _ reply: LoopbackReply, head: Head) -> Bool {
    switch reply {
    case .trickle(let status, let headers, let body, let interval):
      var fields = headers
      fields["Content-Length"] = String(body.count)
      guard send(fd, renderHead(status: status, ["Connection: close"], headers: fields)) else { return false }
      for byte in body {
        guard wait(seconds: interval), send(fd, Data([byte])) else { return false }
        withLock { $0.trickledBytes += 1 }
      }
      return false
    case .endlessChunked(let status, let headers, let chunk):
      var fields = headers
      fields["Transfer-Encoding"] = "chunked"
      guard send(fd, renderHead(status: status, ["Connection: close"], headers: fields)) else { return false }
      let frame =
        Data(String(chunk.count, radix: 16).utf8) + Data("\r\n".utf8) + chunk
        + Data("\r\n".utf8)
      // Ends when the client goes away (the send fails) or `stop()` shuts the socket.
      while send(fd, frame) {}
      return false
    default:
      return false
    }
  }
}

/// A gzip stream that inflates to `1 + 258 × repeats` zero bytes while
/// staying about 600 times smaller: one fixed-Huffman deflate block made of
/// a literal zero and `repeats` back-references of 258 bytes at distance 1.
/// Built by hand because the test target has no zlib.
public enum GzipBomb {
  /// The gzip bytes and the size they inflate to.
  public static func zeros(repeats: Int) -> (gzip: Data, inflatedSize: Int) {
    var bits = BitWriter()
    bits.put(1, count: 1)  // BFINAL
    bits.put(1, count: 2)  // BTYPE 01: fixed Huffman codes
    bits.putCode(0x30, length: 8)  // literal 0
    for _ in 0..<repeats {
      bits.putCode(0xC5, length: 8)  // length code 285: 258 bytes
      bits.putCode(0, length: 5)  // distance code 0: distance 1
    }
    bits.putCode(0, length: 7)  // end of block (256)
    let size = 1 + 258 * repeats
    var data = Data([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF])
    data.append(contentsOf: bits.finished)
    data.append(contentsOf: littleEndian(crc32OfZeros(count: size)))
    data.append(contentsOf: littleEndian(UInt32(truncatingIfNeeded: size)))
    return (data, size)
  }

  private struct BitWriter {
    var bytes: [UInt8] = []
    var current: UInt32 = 0
    var used = 0

    /// Appends `count` bits of `value`, least significant first (deflate's order
    /// for header fields and extra bits).
    mutating func put(_ value: UInt32, count: Int) {
      for index in 0..<count {
        current |= ((value >> UInt32(index)) & 1) << UInt32(used)
        used += 1
        if used == 8 {
          bytes.append(UInt8(current))
          current = 0
          used = 0
        }
      }
    }

    /// Appends a Huffman code, most significant bit first.
    mutating func putCode(_ code: UInt32, length: Int) {
      for index in stride(from: length - 1, through: 0, by: -1) {
        put((code >> UInt32(index)) & 1, count: 1)
      }
    }

    var finished: [UInt8] { used == 0 ? bytes : bytes + [UInt8(current)] }
  }

  private static func crc32OfZeros(count: Int) -> UInt32 {
    var table = [UInt32](repeating: 0, count: 256)
    for index in 0..<256 {
      var value = UInt32(index)
      for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
      table[index] = value
    }
    var crc: UInt32 = 0xFFFF_FFFF
    for _ in 0..<count { crc = table[Int(crc & 0xFF)] ^ (crc >> 8) }
    return crc ^ 0xFFFF_FFFF
  }

  private static func littleEndian(_ value: UInt32) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
  }
}
