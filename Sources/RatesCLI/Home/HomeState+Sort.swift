import RateCore

/// How the home list's sections are ordered: by one column of the market table, either way.
/// Remembered in the config file (``configKey``) as `24h` or `-24h` (descending).
struct HomeSort: Equatable, Sendable {
  /// A column the list sorts by.
  enum Column: String, CaseIterable, Sendable {
    case rank, symbol, name, price
    case change1h = "1h"
    case change24h = "24h"
    case change7d = "7d"
    case marketCap = "market-cap"
    case volume

    /// The key that sorts by the column (pressed again: the other way).
    var key: Character {
      switch self {
      case .rank: return "#"
      case .symbol: return "S"
      case .name: return "N"
      case .price: return "P"
      case .change1h: return "H"
      case .change24h: return "D"
      case .change7d: return "W"
      case .marketCap: return "M"
      case .volume: return "V"
      }
    }

    /// How the status line and the keys screen name it.
    var label: String {
      switch self {
      case .rank: return "rank"
      case .symbol: return "symbol"
      case .name: return "name"
      case .price: return "price"
      case .change1h: return "1 h change"
      case .change24h: return "24 h change"
      case .change7d: return "7 d change"
      case .marketCap: return "market cap"
      case .volume: return "volume"
      }
    }

    /// Names and ranks read best from the top (A first, rank 1 first); figures from the
    /// largest.
    var startsDescending: Bool { ![.rank, .symbol, .name].contains(self) }

    /// The column whose key is `character`, if any.
    static func forKey(_ character: Character) -> Column? {
      allCases.first { $0.key == character }
    }
  }

  /// The column sorted by.
  var column: Column
  /// Largest (or Z) first.
  var descending: Bool
}

extension HomeSort {
  /// By rank, 1 first: the provider's order.
  static let standard = HomeSort(column: .rank, descending: false)

  /// The key in the config file's settings that remembers the sort.
  static let configKey = "home-sort"

  /// The stored form: the column's name, `-` first when descending.
  var stored: String { (descending ? "-" : "") + column.rawValue }

  /// The sort a stored form names; nil for anything else (the default is used).
  init?(stored: String) {
    let descending = stored.hasPrefix("-")
    guard let column = Column(rawValue: String(stored.dropFirst(descending ? 1 : 0))) else {
      return nil
    }
    self.init(column: column, descending: descending)
  }

  /// The sort after pressing `column`'s key: the other way when it is already the column,
  /// else the column in its natural direction.
  func choosing(_ column: Column) -> HomeSort {
    column == self.column
      ? HomeSort(column: column, descending: !descending)
      : HomeSort(column: column, descending: column.startsDescending)
  }

  /// `rows` in this order (the standard sort keeps the given order: top coins come by rank,
  /// your coins and pairs in your order); rows without the value (a pair has no market cap) stay last,
  /// in their given order, either way.
  func sorted(_ rows: [HomeRow]) -> [HomeRow] {
    guard self != .standard else { return rows }
    let keyed = rows.enumerated().map { (offset: $0.offset, row: $0.element, key: key(of: $0.element)) }
    return keyed.sorted { left, right in
      switch (left.key, right.key) {
      case (nil, nil): return left.offset < right.offset
      case (nil, _): return false
      case (_, nil): return true
      case (let l?, let r?):
        if l == r { return left.offset < right.offset }
        return descending ? r < l : l < r
      }
    }.map(\.row)
  }

  /// What a row sorts by: a number, or a lower-cased text.
  enum Key: Comparable {
    case number(Double)
    case text(String)
  }

  private func key(of row: HomeRow) -> Key? {
    func number(_ value: Double?) -> Key? { value.flatMap { $0.isFinite ? .number($0) : nil } }
    switch column {
    case .rank: return row.market.rank.map { .number(Double($0)) }
    case .symbol: return .text(row.symbol.lowercased())
    case .name: return .text(row.name.lowercased())
    case .price: return number(row.rate)
    case .change1h: return number(row.market.change1h)
    case .change24h: return number(row.changePercent)
    case .change7d: return number(row.market.change7d)
    case .marketCap: return number(row.market.marketCap)
    case .volume: return number(row.market.volume)
    }
  }
}

// The keys that sort the list.
extension HomeState {
  /// A sort key on the list (`#`, `S`, `N`, `P`, `H`, `D`, `W`, `M`, `V`): sorts by its
  /// column, or the other way when it already does; the cursor stays on its row; the
  /// driver remembers the choice (``HomeEffect/saveSort(_:)``). Nil for any other key.
  mutating func sortKey(_ key: TerminalKey) -> [HomeEffect]? {
    guard case .character(let character) = key, let column = HomeSort.Column.forKey(character) else {
      return nil
    }
    let selected = selectedRow
    sort = sort.choosing(column)
    let rows = listRows
    let index = selected.flatMap { row in rows.firstIndex { $0.kind == row.kind && $0.id == row.id } }
    moveCursor(to: index ?? cursor)
    let words = [.symbol, .name].contains(sort.column) ? ("A to Z", "Z to A") : ("smallest first", "largest first")
    notice = "Sorted by \(sort.column.label), \(sort.descending ? words.1 : words.0)"
    return [.saveSort(sort)]
  }

  /// PageUp/PageDown on the list: a whole page, the cursor keeping its place on the page
  /// (cointop's paging): pages start at multiples of ``pageSize`` from the top, so the page
  /// indicator reads `21–40 of 100`. At the first or last page the cursor goes to the end.
  mutating func turnPage(forward: Bool) {
    let last = max(0, listRows.count - 1)
    let page = max(1, pageSize)
    let newScroll = forward ? (scroll + page <= last ? scroll + page : scroll) : max(0, scroll - page)
    if newScroll == scroll {
      cursor = forward ? last : 0
    } else {
      cursor = min(max(0, cursor + newScroll - scroll), last)
      scroll = newScroll
    }
    if cursor < scroll { scroll = cursor }
    if cursor >= scroll + page { scroll = cursor - page + 1 }
  }
}
