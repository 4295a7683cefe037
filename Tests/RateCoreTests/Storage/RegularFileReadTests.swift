import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// ``RegularFile/readAll(_:expected:limit:)`` sizes its buffer from the file's expected size and
/// answers as the 64 KB-chunk loop it replaces, whether the file is as long as expected, longer
/// (it grew after `fstat`) or shorter (it shrank).
@Suite struct RegularFileReadTests {
  let scratch = Scratch()

  /// The previous loop, kept as the reference.
  static func legacyReadAll(_ fd: Int32, limit: Int) -> [UInt8]?? {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 { return .none }
      if count == 0 { return .some(bytes) }
      guard bytes.count + count <= limit else { return .some(nil) }
      bytes.append(contentsOf: buffer[0..<count])
    }
  }

  @Test func answersAsTheChunkLoopForAnyExpectedSizeAndLimit() throws {
    let folder = try scratch.folder()
    for size in [0, 1, 2, 100, 4_095, 65_535, 65_536, 65_537, 200_001] {
      let url = folder.appendingPathComponent("f\(size)")
      let content = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
      try Data(content).write(to: url)
      let fd = open(url.path, O_RDONLY)
      expect(fd >= 0)
      defer { close(fd) }
      let expectations = [0, size / 2, max(size - 1, 0), size, size + 1, size * 3 + 5]
      let limits = [Int.max, size, max(size - 1, 0), size + 1, 0, 65_536]
      for expected in expectations {
        for limit in limits {
          lseek(fd, 0, SEEK_SET)
          let read = try RegularFile.readAll(fd, expected: expected, limit: limit)
          lseek(fd, 0, SEEK_SET)
          let legacy = try require(Self.legacyReadAll(fd, limit: limit))
          expectEqual(read, legacy, "size \(size), expected \(expected), limit \(limit)")
          expectEqual(read, (size <= limit ? content : nil))
        }
      }
    }
  }

  /// The buffer is never sized from the limit: reading a small file under an 8 MB limit, or
  /// a file that turns out longer than expected, allocates about what the file holds.
  @Test func theBufferFollowsTheFileNotTheLimit() throws {
    let url = try scratch.folder().appendingPathComponent("entry.json")
    try Data(repeating: 65, count: 3_000).write(to: url)
    let fd = open(url.path, O_RDONLY)
    expect(fd >= 0)
    defer { close(fd) }
    let exact = try require(try RegularFile.readAll(fd, expected: 3_000, limit: 8 << 20))
    expect(exact.count == 3_000 && exact.capacity < 4_096)
    lseek(fd, 0, SEEK_SET)
    let grown = try require(try RegularFile.readAll(fd, expected: 1_000, limit: 8 << 20))
    expect(grown.count == 3_000 && grown.capacity < 70_000)
  }
}
