extension DayStore {
  /// What is known about each day, and where it came from. Dense: one slot
  /// per day from ``first``, as in the file.
  public struct Days: Sendable {
    /// The day of the first slot.
    public private(set) var first = Day(daysSinceEpoch: 0)
    /// Per day: 0 never asked, ``DayStore/noValueBits`` none,
    /// ``DayStore/leftOutBits`` + k left out k times, else the value's bits.
    private(set) var slots: [UInt64] = []
    /// Per day: its fetch, a 1-based index into ``fetches`` (0 unknown).
    private(set) var origins: [UInt16] = []
    /// The fetches days came from.
    private(set) var fetches: [Fetch] = []

    /// Creates an empty set of days.
    public init() {}

    init(first: Day, slots: [UInt64], origins: [UInt16], fetches: [Fetch]) {
      self.first = first
      self.slots = slots
      self.origins = origins
      self.fetches = fetches
    }

    private func index(_ day: Day) -> Int? {
      let index = first.distance(to: day)
      return index >= 0 && index < slots.count ? index : nil
    }

    static func isAnswered(_ bits: UInt64) -> Bool { bits != 0 && leftOut(bits) == 0 }

    /// How many answers left the day out, for "left out" bits; else 0.
    static func leftOut(_ bits: UInt64) -> Int {
      bits & ~0xFF == DayStore.leftOutBits ? Int(bits & 0xFF) : 0
    }

    /// What is known of `day`.
    public func state(_ day: Day) -> State {
      guard let index = index(day) else { return .unanswered(leftOut: 0) }
      let bits = slots[index]
      if bits == DayStore.noValueBits { return .none }
      if bits == 0 || Self.leftOut(bits) > 0 { return .unanswered(leftOut: Self.leftOut(bits)) }
      return .value(Double(bitPattern: bits))
    }

    /// The fetch `day`'s state came from, when known.
    public func origin(_ day: Day) -> Fetch? {
      guard let index = index(day), origins[index] > 0 else { return nil }
      return fetches[Int(origins[index]) - 1]
    }

    /// The value of `day`, if it has one.
    public func value(_ day: Day) -> Double? {
      if case .value(let value) = state(day) { return value }
      return nil
    }

    /// Whether `day` is answered (a value or none).
    public func knows(_ day: Day) -> Bool { index(day).map { Self.isAnswered(slots[$0]) } ?? false }

    /// Whether `day` is known to have no value.
    public func isEmpty(_ day: Day) -> Bool { state(day) == .none }

    /// Sets `day`'s value (nil: known to have none), replacing what was known.
    public mutating func set(_ day: Day, _ value: Double?, from fetch: Fetch? = nil) {
      put(day, value.map(\.bitPattern) ?? DayStore.noValueBits, origin: fetch)
    }

    /// Marks `day` as left out of the answer `fetch` brought, `count` times in all.
    public mutating func setLeftOut(_ day: Day, count: Int, from fetch: Fetch?) {
      put(day, DayStore.leftOutBits | UInt64(min(max(count, 1), 255)), origin: fetch)
    }

    /// Forgets `day` (never asked again): a day not yet settled is never stored.
    public mutating func clear(_ day: Day) {
      if let index = index(day) {
        slots[index] = 0
        origins[index] = 0
      }
    }

    private mutating func put(_ day: Day, _ bits: UInt64, origin fetch: Fetch?) {
      let origin = fetch.map { originIndex($0) } ?? 0
      if slots.isEmpty {
        (first, slots, origins) = (day, [bits], [origin])
        return
      }
      let offset = first.distance(to: day)
      if offset < 0 {
        slots.insert(contentsOf: [UInt64](repeating: 0, count: -offset), at: 0)
        origins.insert(contentsOf: [UInt16](repeating: 0, count: -offset), at: 0)
        first = day
      } else if offset >= slots.count {
        slots.append(contentsOf: [UInt64](repeating: 0, count: offset - slots.count + 1))
        origins.append(contentsOf: [UInt16](repeating: 0, count: offset - origins.count + 1))
      }
      let index = first.distance(to: day)
      slots[index] = bits
      origins[index] = origin
    }

    /// The 1-based index of `fetch` in the table, added when new; 0 when the
    /// table is full (the provenance is then unknown rather than wrong).
    private mutating func originIndex(_ fetch: Fetch) -> UInt16 {
      if let found = fetches.lastIndex(of: fetch) { return UInt16(found + 1) }
      guard fetches.count < Int(UInt16.max) else { return 0 }
      fetches.append(fetch)
      return UInt16(fetches.count)
    }

    /// The first day with a value.
    public var firstValue: Day? {
      slots.firstIndex { Self.isAnswered($0) && $0 != DayStore.noValueBits }.map { first.adding(days: $0) }
    }

    /// Forgets (as never asked) each day known to have none for which `forget` is true.
    public mutating func forgetNones(where forget: (Day) -> Bool) {
      for index in slots.indices where slots[index] == DayStore.noValueBits {
        if forget(first.adding(days: index)) {
          slots[index] = 0
          origins[index] = 0
        }
      }
    }

    /// Every day with a value, oldest first.
    public var values: [(day: Day, value: Double)] {
      slots.indices.compactMap { index in
        let bits = slots[index]
        guard Self.isAnswered(bits), bits != DayStore.noValueBits else { return nil }
        return (first.adding(days: index), Double(bitPattern: bits))
      }
    }

    /// How many days have a value, how many are known to have none, and how
    /// many were left out of an answer.
    public var counts: (values: Int, empty: Int, leftOut: Int) {
      var counts = (values: 0, empty: 0, leftOut: 0)
      for bits in slots where bits != 0 {
        if bits == DayStore.noValueBits {
          counts.empty += 1
        } else if Self.leftOut(bits) > 0 {
          counts.leftOut += 1
        } else {
          counts.values += 1
        }
      }
      return counts
    }

    /// The first and last stored day (answered or left out).
    public var span: ClosedRange<Day>? {
      guard let head = slots.firstIndex(where: { $0 != 0 }),
        let tail = slots.lastIndex(where: { $0 != 0 })
      else { return nil }
      return first.adding(days: head)...first.adding(days: tail)
    }

    /// The runs of consecutive stored days, oldest first.
    public var runs: [ClosedRange<Day>] {
      var runs: [ClosedRange<Day>] = []
      var start: Int?
      for index in 0...slots.count {
        let stored = index < slots.count && slots[index] != 0
        if stored, start == nil { start = index }
        if !stored, let head = start {
          runs.append(first.adding(days: head)...first.adding(days: index - 1))
          start = nil
        }
      }
      return runs
    }

    /// `other` added. Without `replacing`, a value or none already here is
    /// kept (a value wins over none); with it, `other`'s values and nones
    /// replace what is here. A day `other` left out never replaces an
    /// answered one.
    public mutating func merge(_ other: Days, replacing: Bool = false) {
      for (index, bits) in other.slots.enumerated() where bits != 0 {
        let day = other.first.adding(days: index)
        let fetch = other.origins[index] > 0 ? other.fetches[Int(other.origins[index]) - 1] : nil
        let here = state(day)
        let take: Bool
        switch (Self.isAnswered(bits), here) {
        case (false, .unanswered(let count)): take = Self.leftOut(bits) >= count
        case (false, _): take = false
        case (true, .unanswered): take = true
        case (true, .none): take = replacing || bits != DayStore.noValueBits
        case (true, .value): take = replacing
        }
        if take { put(day, bits, origin: fetch) }
      }
    }

    /// Days before `day` dropped (a source's first day: they are known to
    /// have none without being stored).
    public mutating func drop(before day: Day) {
      let count = min(max(0, first.distance(to: day)), slots.count)
      guard count > 0 else { return }
      slots.removeFirst(count)
      origins.removeFirst(count)
      first = day
    }

    /// Days after `day` dropped (never over when stored: `cache verify --fix`).
    public mutating func drop(after day: Day) {
      let keep = min(max(0, first.distance(to: day) + 1), slots.count)
      slots.removeLast(slots.count - keep)
      origins.removeLast(origins.count - keep)
    }

    /// The same days, trimmed to the stored span, with only the fetches they
    /// use, oldest first (what the file holds).
    var trimmed: Days {
      guard let span else { return Days() }
      let head = first.distance(to: span.lowerBound)
      let range = head...(head + span.lowerBound.distance(to: span.upperBound))
      var used = Set<UInt16>()
      for index in range where origins[index] > 0 { used.insert(origins[index]) }
      let table = used.sorted {
        (fetches[Int($0) - 1].fetchedAt, $0) < (fetches[Int($1) - 1].fetchedAt, $1)
      }
      var renumber = [UInt16](repeating: 0, count: fetches.count + 1)
      for (position, old) in table.enumerated() { renumber[Int(old)] = UInt16(position + 1) }
      return Days(
        first: span.lowerBound, slots: Array(slots[range]),
        origins: origins[range].map { renumber[Int($0)] },
        fetches: table.map { fetches[Int($0) - 1] })
    }
  }
}

extension DayStore.Days: Equatable {
  /// Equal when they know the same days the same way, from the same fetches,
  /// however far their slots reach.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    let (left, right) = (lhs.trimmed, rhs.trimmed)
    return left.slots == right.slots && left.origins == right.origins
      && left.fetches == right.fetches && (left.slots.isEmpty || left.first == right.first)
  }
}
