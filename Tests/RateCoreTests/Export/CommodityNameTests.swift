import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// Journal commodity names: valid everywhere, stable, and never shared by two assets.
@Suite struct CommodityNameTests {
  /// beancount 2's currency syntax (beancount 3 drops the length limit).
  static func isValidBeancount(_ name: String) -> Bool {
    name.range(of: #"^[A-Z][A-Z0-9'._-]{0,22}[A-Z0-9]$"#, options: .regularExpression) != nil
  }

  @Test(arguments: [
    ("usd", "USD"), ("LBP", "LBP"), ("sats", "SATS"), ("usd+", "X'USD'2B"), ("x", "X'X"),
    ("_", "X''5F"), ("$", "X''24"), ("1inch", "X'1INCH"), ("a b", "X'A'20B"), ("é", "X''C3'89"),
  ])
  func codes(_ text: String, _ name: String) {
    expectEqual(CommodityName.code(text).name, name)
  }

  /// A side is named from the coin the command resolved, not looked up again by its symbol.
  @Test func aSideIsNamedFromItsResolvedCoin() {
    let kaspa = Asset(symbol: "KAS", id: "kaspa")
    let gecko = Provider.coinGecko
    expectEqual(CommodityName.of("KAS", source: .provider(gecko), resolved: kaspa).name, "KASPA")
    expectEqual(CommodityName.of("EUR", source: .provider(gecko), resolved: kaspa).name, "EUR")
    expectEqual(CommodityName.of("KAS", source: .provider(gecko), resolved: nil).name, "KAS")
    expectEqual(
      CommodityName.of("BTC", source: .provider(.coinDesk), resolved: Asset(symbol: "BTC", id: "BTC")).name, "BTC")
    let wormhole = Asset(symbol: "ethereum-wormhole", id: "ethereum-wormhole")
    expectEqual(
      CommodityName.of("ethereum-wormhole", source: .provider(gecko), resolved: wormhole).name, "ETHEREUM-WORMHOLE")
    expectEqual(
      CommodityName.of("ETH", source: .provider(gecko), resolved: Asset(symbol: "ETH", id: "ethereum")).name, "ETH")
  }

  @Test(arguments: [
    ("bitcoin", "BTC"), ("ethereum", "ETH"), ("wrapped-bitcoin", "WRAPPED-BITCOIN"),
    ("ethereum-wormhole", "ETHEREUM-WORMHOLE"), ("usd", "X'USD"), ("eth", "X'ETH"),
    ("1inch", "X'1INCH"),
  ])
  func coins(_ id: String, _ name: String) {
    expectEqual(CommodityName.coin(id: id).name, name)
  }

  /// Before: `usd+` became `USD`, and `x`, `_` and `$` all became `X` (one letter, which
  /// beancount 2 refuses).
  @Test func namesNeverCollide() {
    let codes = ["usd+", "USD", "x", "_", "$", "x_", "X'X", "BTC", "1inch", "X1INCH", "a-", "A"]
    let coins = ["ethereum", "ethereum-wormhole", "usd", "eth", "usd-plus", "btc"]
    let names = codes.map { CommodityName.code($0).name } + coins.map { CommodityName.coin(id: $0).name }
    expectEqual(Set(names).count, names.count, "\(names)")
    // A coin and a currency code only share a name when they are the same thing.
    expectEqual(CommodityName.coin(id: "bitcoin"), CommodityName.code("BTC"))
    // Every coin among CoinGecko's quote currencies is named as that quote is.
    for code in CurrencyCodes.coinGeckoQuotes where !CurrencyCode(code).isFiat {
      guard let id = CommodityName.symbols.first(where: { $0.value == code })?.key else { continue }
      expectEqual(CommodityName.coin(id: id), CommodityName.code(code), "\(code)")
    }
    expectEqual(CommodityName.coin(id: "yearn-finance"), CommodityName.code("yfi"))
  }

  @Test func longNamesAreShortenedWithAHash() {
    let long = "wrapped-bitcoin-celer-bridged-from-ethereum"
    let name = CommodityName.coin(id: long).name
    expectEqual(name.count, 24)
    expect(name.hasPrefix("WRAPPED-BITCOIN'"))
    expect(name != CommodityName.coin(id: long + "-2").name)
    expectEqual(name, CommodityName.coin(id: long).name)
  }

  /// Property: any text gets a valid name; distinct texts (case aside) get distinct names.
  @Test func everyNameIsValidAndDistinct() {
    var generator = SeededGenerator(state: 42)
    let alphabet = Array("abcxyzXYZ0189-._'$+ /é€")
    var seen: [String: String] = [:]
    for _ in 0..<5_000 {  // sized for a debug build
      let length = Int(generator.next() % 30) + 1
      let text = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
      let name = CommodityName.code(text).name
      expect(Self.isValidBeancount(name), "\(text) → \(name)")
      expect(name.count <= 24)
      if let other = seen[name] {
        expectEqual(other.uppercased(), text.uppercased(), "\(other) and \(text) → \(name)")
      }
      seen[name] = text
      let ledger = CommodityName.code(text).ledger
      expect(ledger == name || ledger == "\"\(name)\"")
    }
  }
}
