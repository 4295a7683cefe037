import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// The split of an older `favorites.json` (the one merged list) into your coins and
/// favorites, on real files.
@Suite struct UserDataMigrationTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  /// A favorites file as an older `rates` wrote it.
  static let oldFavorites = """
    {
      "favorites" : [
        {
          "addedAt" : "2024-06-01T10:00:00Z",
          "id" : "bitcoin",
          "name" : "Bitcoin",
          "symbol" : "BTC"
        },
        {
          "addedAt" : "2024-06-02T10:00:00Z",
          "id" : "solana",
          "symbol" : "SOL"
        }
      ],
      "version" : 1
    }

    """

  struct Setup {
    var directory: URL
    var notices: Recorder<String>
    var data: UserData
    var favoritesURL: URL { directory.appendingPathComponent("favorites.json") }
    var coinsURL: URL { directory.appendingPathComponent("coins.json") }
    var backupURL: URL { directory.appendingPathComponent("favorites.json.before-coins") }
  }

  func makeSetup(favorites: String? = oldFavorites) throws -> Setup {
    let directory = try scratch.folder().appendingPathComponent("rates")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let notices = Recorder<String>()
    let data = UserData(directory: directory, notify: { notices.append("\($0)") })
    let setup = Setup(directory: directory, notices: notices, data: data)
    if let favorites { try Data(favorites.utf8).write(to: setup.favoritesURL) }
    return setup
  }

  func names(_ directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
  }

  func permissions(_ url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }

  @Test func favoritesBecomeCoinsAndStayFavorites() throws {
    let setup = try makeSetup()
    expectEqual(try setup.data.readCoins().map(\.id), ["bitcoin", "solana"])
    expectEqual(try setup.data.favorites.read().map(\.id), ["bitcoin", "solana"])
    expectEqual(try Data(contentsOf: setup.favoritesURL), Data(Self.oldFavorites.utf8), "untouched")
    let coins = try setup.data.coins.read()
    expect(coins.first?.name == "Bitcoin" && coins.first?.addedAt == Date(timeIntervalSince1970: 1_717_236_000))
    expectEqual(try permissions(setup.coinsURL), 0o600)
    expectEqual(setup.notices.all.count, 1)
    expectEqual(setup.notices.all.first?.contains("copied your 2 favorites to your coins"), true)
    expectEqual(setup.notices.all.first?.contains(setup.backupURL.path), true)
  }

  @Test func backupHoldsTheOldBytesWithMode0600() throws {
    let setup = try makeSetup()
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: setup.favoritesURL.path)
    expectEqual(try setup.data.migrateListsIfNeeded(), setup.backupURL)
    expectEqual(try Data(contentsOf: setup.backupURL), Data(Self.oldFavorites.utf8))
    expectEqual(try permissions(setup.backupURL), 0o600)
  }

  @Test func secondRunDoesNothing() throws {
    let setup = try makeSetup()
    try setup.data.migrateListsIfNeeded()
    let removed = try setup.data.removeCoin(id: "solana")
    expectEqual(removed?.index, 1)
    let coinsBytes = try Data(contentsOf: setup.coinsURL)
    expectEqual(try setup.data.migrateListsIfNeeded(), nil)
    expectEqual(try UserData(directory: setup.directory).readCoins().map(\.id), ["bitcoin"])
    expectEqual(try Data(contentsOf: setup.coinsURL), coinsBytes, "a removed coin stays removed")
    expectEqual(setup.notices.all.count, 1)
    expectEqual(
      try names(setup.directory),
      [
        ".coins.json.lock", "coins.json", "favorites.json", "favorites.json.before-coins",
      ])
  }

  @Test func anExistingBackupIsNeverReplaced() throws {
    let setup = try makeSetup()
    try Data("mine".utf8).write(to: setup.backupURL)
    let backup = try setup.data.migrateListsIfNeeded()
    expectEqual(backup?.lastPathComponent, "favorites.json.before-coins.1")
    expectEqual(try Data(contentsOf: setup.backupURL), Data("mine".utf8))
    expectEqual(try backup.map { try Data(contentsOf: $0) }, Data(Self.oldFavorites.utf8))
  }

  /// Twenty threads with their own handles migrate at once: the coins are copied once,
  /// one notice, one backup.
  @Test func concurrentMigrationsCopyOnce() async throws {
    let setup = try makeSetup()
    let failures = await runTogether(20) { index in
      let data = UserData(directory: setup.directory, notify: { setup.notices.append("\($0)") })
      if index.isMultiple(of: 2) {
        try data.addCoins([FavoriteCoin(id: "coin-\(index)", symbol: "C\(index)", name: nil, addedAt: fixedNow)])
      } else {
        _ = try data.readCoins()
      }
    }
    expectEqual(failures, [])
    let coins = try setup.data.readCoins().map(\.id)
    expectEqual(coins.prefix(2), ["bitcoin", "solana"])
    expectEqual(Set(coins.dropFirst(2)), Set(stride(from: 0, to: 20, by: 2).map { "coin-\($0)" }))
    expectEqual(coins.count, 12)
    expectEqual(setup.notices.all.count, 1)
    expectEqual(try names(setup.directory).filter { $0.contains("before-coins") }, ["favorites.json.before-coins"])
  }

  @Test func corruptFavoritesStopItAndStayAsTheyWere() throws {
    let broken = "{\"favorites\": [{\"id\": \"bitcoin\""
    let setup = try makeSetup(favorites: broken)
    #expect(throws: DataFileError.self) { try setup.data.readCoins() }
    #expect(throws: DataFileError.self) {
      try setup.data.addCoins([FavoriteCoin(id: "x", symbol: "X", name: nil, addedAt: fixedNow)])
    }
    expectEqual(try Data(contentsOf: setup.favoritesURL), Data(broken.utf8))
    expectEqual(try names(setup.directory), [".coins.json.lock", "favorites.json"])
    expectEqual(setup.notices.all, [])
  }

  @Test func favoritesOfANewerVersionAreNotTouched() throws {
    let newer = "{\"favorites\": [], \"version\": 9}\n"
    let setup = try makeSetup(favorites: newer)
    #expect(throws: DataFileError.unsupportedVersion(path: setup.favoritesURL.path, version: 9, supported: 1)) {
      try setup.data.readCoins()
    }
    expectEqual(try Data(contentsOf: setup.favoritesURL), Data(newer.utf8))
    expect(!FileManager.default.fileExists(atPath: setup.coinsURL.path))
  }

  /// A favorites file linked from elsewhere stays a link; the backup is a copy of its bytes.
  @Test func symbolicLinkedFavoritesStayLinked() throws {
    let setup = try makeSetup(favorites: nil)
    let elsewhere = try scratch.folder().appendingPathComponent("dotfiles-favorites.json")
    try Data(Self.oldFavorites.utf8).write(to: elsewhere)
    try FileManager.default.createSymbolicLink(at: setup.favoritesURL, withDestinationURL: elsewhere)
    expectEqual(try setup.data.readCoins().count, 2)
    expectEqual(try FileManager.default.destinationOfSymbolicLink(atPath: setup.favoritesURL.path), elsewhere.path)
    expectEqual(try Data(contentsOf: setup.backupURL), Data(Self.oldFavorites.utf8))
    expect(UserData.isRegularFile(setup.backupURL))
  }

  /// No favorites file: nothing to copy, and reading creates nothing.
  @Test func freshUserReadsCreateNothing() throws {
    let setup = try makeSetup(favorites: nil)
    expectEqual(try setup.data.readCoins(), [])
    expectEqual(try names(setup.directory).filter { !$0.hasPrefix(".") }, [], "only the read's lock")
  }

  /// A coin starred by this version is never taken for an old favorite later.
  @Test func starringFirstIsNotMigrated() throws {
    let setup = try makeSetup(favorites: nil)
    try setup.data.setFavorite(FavoriteCoin(id: "bitcoin", symbol: "BTC", name: nil, addedAt: fixedNow), starred: true)
    expectEqual(try UserData(directory: setup.directory).readCoins(), [])
    expectEqual(setup.notices.all, [])
    expect(try !names(setup.directory).contains("favorites.json.before-coins"))
  }

  /// An empty favorites file has nothing to copy; coins.json records that it was looked at.
  @Test func emptyFavoritesMarkTheSplitDone() throws {
    let setup = try makeSetup(favorites: "{\"favorites\": [], \"version\": 1}\n")
    expectEqual(try setup.data.readCoins(), [])
    expect(FileManager.default.fileExists(atPath: setup.coinsURL.path))
    expectEqual(setup.notices.all, [])
  }

  /// Completion reads without a lock and writes nothing: before the split, the favorites.
  @Test func completionSeesTheCoinsToBe() throws {
    let setup = try makeSetup()
    expectEqual(try setup.data.coinsWithoutLock().map(\.id), ["bitcoin", "solana"])
    expectEqual(setup.data.pendingListsSplit(), 2)
    expect(!FileManager.default.fileExists(atPath: setup.coinsURL.path))
    try setup.data.migrateListsIfNeeded()
    expectEqual(setup.data.pendingListsSplit(), nil)
    _ = try setup.data.removeCoin(id: "bitcoin")
    expectEqual(try setup.data.coinsWithoutLock().map(\.id), ["solana"])
  }
  /// A data directory that cannot be written (read-only, or as here a lock that cannot be
  /// taken for writing) does not stop reading: the coins are the favorites the split will
  /// copy, as `top` and `watch` showed them before it; adding still fails.
  @Test func unwritableDirectoryStillReadsTheCoinsToBe() throws {
    let setup = try makeSetup()
    // Root writes into a 0555 directory, so an unwritable lock stands in for it.
    let lock = setup.directory.appendingPathComponent(".coins.json.lock")
    try FileManager.default.createDirectory(at: lock, withIntermediateDirectories: false)
    expectEqual(try setup.data.readCoins().map(\.id), ["bitcoin", "solana"])
    #expect(throws: AtomicFile.WriteError.self) {
      try setup.data.addCoins([FavoriteCoin(id: "x", symbol: "X", name: nil, addedAt: fixedNow)])
    }
    expect(!FileManager.default.fileExists(atPath: setup.coinsURL.path))
    expectEqual(setup.notices.all, [])
  }

  @Test func readOnlyDirectoryStillReadsTheCoinsToBe() throws {
    guard getuid() != 0 else { return }  // root writes anywhere
    let setup = try makeSetup()
    chmod(setup.directory.path, 0o555)
    defer { chmod(setup.directory.path, 0o755) }
    expectEqual(try setup.data.readCoins().map(\.id), ["bitcoin", "solana"])
  }
}
