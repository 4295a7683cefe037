import RatesExpectations
import Testing

@testable import RatesCLI

/// Issue 27: an ASCII terminal's names drop their accents without Foundation's
/// `folding(options: .diacriticInsensitive)` (not in FoundationEssentials).
@Suite struct AsciiFoldTests {
  @Test func accentedLatinLettersLoseTheirAccents() {
    expectEqual(HomeRenderer.asciiFolded("Icelandic Króna", true), "Icelandic Krona")
    expectEqual(HomeRenderer.asciiFolded("Złoty Ñandú Çà", true), "Zloty Nandu Ca")
    expectEqual(HomeRenderer.asciiFolded("e\u{301}te\u{301}", true), "ete")
  }

  @Test func anythingElseBeyondASCIIIsAQuestionMark() {
    expectEqual(HomeRenderer.asciiFolded("円 ß €", true), "? ? ?")
    expectEqual(HomeRenderer.asciiFolded("Króna", false), "Króna")
  }
}
