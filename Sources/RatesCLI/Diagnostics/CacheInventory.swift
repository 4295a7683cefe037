import Foundation
import RateCore

/// What the cache holds: its files grouped by provider and kind, their size and the range of
/// their envelopes' `fetchedAt`. Used by `rates cache` and `rates doctor`.
struct CacheInventory: Sendable, Equatable {
  /// One provider's entries of one kind, such as `coingecko/history`.
  struct Group: Sendable, Equatable, Encodable {
    var provider: String
    var kind: String
    var entries: Int
    var bytes: Int
  }

  /// The cache directory.
  var directory: URL
  /// Whether it exists.
  var exists: Bool
  /// Cache entries (`.json` files); temporary and other files are only counted in `bytes`.
  var entries: Int
  /// The size of every regular file under the directory.
  var bytes: Int
  /// Entries whose envelope could not be read (corrupt, or another format version).
  var unreadable: Int
  /// The oldest and newest `fetchedAt` of the readable entries.
  var oldest: Date?
  var newest: Date?
  /// Entries by provider and kind, sorted.
  var groups: [Group]

  struct Probe: Decodable {
    var version: Int
    var fetchedAt: Date
  }

  /// Scans `directory` (every file is opened to read its `fetchedAt`).
  static func scan(_ directory: URL) -> CacheInventory {
    var inventory = CacheInventory(
      directory: directory, exists: false, entries: 0, bytes: 0, unreadable: 0, oldest: nil,
      newest: nil, groups: [])
    let manager = FileManager.default
    var isDirectory: ObjCBool = false
    guard manager.fileExists(atPath: directory.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else { return inventory }
    inventory.exists = true
    let keys: [URLResourceKey] = [.isRegularFileKey, .fileSizeKey]
    guard
      let enumerator = manager.enumerator(
        at: directory, includingPropertiesForKeys: keys, options: [])
    else { return inventory }
    let rootComponents = directory.standardizedFileURL.resolvingSymlinksInPath().pathComponents
    let decoder = JSONCoders.decoder()
    var groups: [String: Group] = [:]
    for case let url as URL in enumerator {
      guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true
      else { continue }
      let size = values.fileSize ?? 0
      inventory.bytes += size
      let name = url.lastPathComponent
      guard name.hasSuffix(".json"), !name.hasPrefix(".") else { continue }
      inventory.entries += 1
      let components = url.standardizedFileURL.resolvingSymlinksInPath().pathComponents
      let relative =
        components.starts(with: rootComponents)
        ? Array(components.dropFirst(rootComponents.count)) : [name]
      let provider = relative.count > 1 ? relative[0] : "-"
      let kind = relative.count > 2 ? relative[1] : "-"
      let groupKey = provider + "/" + kind
      var group = groups[groupKey] ?? Group(provider: provider, kind: kind, entries: 0, bytes: 0)
      group.entries += 1
      group.bytes += size
      groups[groupKey] = group
      guard let data = manager.contents(atPath: url.path),
        let probe = try? decoder.decode(Probe.self, from: data),
        probe.version == JSONFileCache.formatVersion
      else {
        inventory.unreadable += 1
        continue
      }
      inventory.oldest = min(inventory.oldest ?? probe.fetchedAt, probe.fetchedAt)
      inventory.newest = max(inventory.newest ?? probe.fetchedAt, probe.fetchedAt)
    }
    inventory.groups = groups.values.sorted { ($0.provider, $0.kind) < ($1.provider, $1.kind) }
    return inventory
  }

  /// `1.2 MB`, `830 B`: a size for people (powers of 1000, like `ls -h --si`).
  static func formatBytes(_ bytes: Int) -> String {
    if bytes < 1000 { return "\(bytes) B" }
    let units = ["kB", "MB", "GB", "TB"]
    var value = Double(bytes) / 1000
    var index = 0
    while value >= 1000 && index < units.count - 1 {
      value /= 1000
      index += 1
    }
    return String(format: value < 10 ? "%.1f %@" : "%.0f %@", value, units[index])
  }

  /// `3 h ago`, `2 d ago`: an age for people.
  static func formatAge(_ date: Date, now: Date) -> String {
    let seconds = Int(now.timeIntervalSince(date))
    if seconds < 0 { return "in the future" }
    if seconds < 60 { return "\(seconds) s ago" }
    if seconds < 3600 { return "\(seconds / 60) min ago" }
    if seconds < 86_400 { return "\(seconds / 3600) h ago" }
    return "\(seconds / 86_400) d ago"
  }
}
