/// FNV-1a hashes of text: the same on every run and machine, unlike
/// `Hasher`, for names that must not change (cache keys, commodity names).
public enum StableHash {
  /// 64-bit FNV-1a of the UTF-8 bytes of `text`.
  public static func fnv1a64(_ text: String) -> UInt64 {
    fnv1a(text, offsetBasis: 0xcbf2_9ce4_8422_2325, prime: 0x100_0000_01b3)
  }

  /// 32-bit FNV-1a of the UTF-8 bytes of `text`.
  static func fnv1a32(_ text: String) -> UInt32 {
    fnv1a(text, offsetBasis: 0x811c_9dc5, prime: 0x0100_0193)
  }

  private static func fnv1a<Hash: FixedWidthInteger & UnsignedInteger>(
    _ text: String, offsetBasis: Hash, prime: Hash
  ) -> Hash {
    var hash = offsetBasis
    for byte in text.utf8 {
      hash ^= Hash(byte)
      hash = hash &* prime
    }
    return hash
  }
}
