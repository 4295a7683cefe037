import RateCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Doctor {
  // MARK: - Local files

  func cacheCheck() -> DoctorCheck {
    let inventory = CacheInventory.scan(settings.paths.cache)
    let path = inventory.directory.path
    var values: [String: DoctorCheck.Value] = [
      "path": .string(path), "bytes": .integer(Int64(inventory.bytes)), "entries": .integer(Int64(inventory.entries)),
      "unreadable": .integer(Int64(inventory.unreadable)),
    ]
    guard inventory.exists else {
      return DoctorCheck(name: "cache", status: .ok, detail: "empty (\(path))", values: values)
    }
    var detail =
      "\(path): \(inventory.entries) \(inventory.entries == 1 ? "entry" : "entries"), "
      + CacheInventory.formatBytes(inventory.bytes)
    if let oldest = inventory.oldest {
      values["oldest"] = .string(ISO8601.format(oldest))
      detail += ", oldest fetched \(CacheInventory.formatAge(oldest, now: now()))"
    }
    var status = DoctorCheck.Status.ok
    if inventory.unreadable > 0 {
      status = .warn
      detail += "; \(inventory.unreadable) unreadable (ignored, and replaced by the next fetch)"
    }
    if access(path, W_OK) != 0 {
      status = .warn
      detail += "; not writable"
    }
    return DoctorCheck(name: "cache", status: status, detail: detail, values: values)
  }

  /// `coins.json`; before the split of an older favorites file, says its favorites become
  /// your coins on first use (the doctor itself changes nothing).
  func coinsCheck(_ data: UserData) -> DoctorCheck {
    var check = dataFileCheck("coins", data.coins) { $0.count }
    if check.status == .ok, let count = data.pendingListsSplit() {
      check.detail +=
        count == 1
        ? "; your favorite becomes one of your coins on first use"
        : "; your \(count) favorites become your coins on first use"
    }
    return check
  }

  func dataFileCheck<Value: Codable & Sendable>(
    _ name: String, _ file: DataFile<Value>, count: (Value) -> Int
  ) -> DoctorCheck {
    let path = file.url.path
    var values: [String: DoctorCheck.Value] = ["path": .string(path)]
    var info = stat()
    guard lstat(path, &info) == 0 else {
      if errno == ENOENT {
        return DoctorCheck(name: name, status: .ok, detail: "none yet (\(path))", values: values)
      }
      return DoctorCheck(
        name: name, status: .fail, detail: "cannot read \(path): \(AtomicFile.lastError())",
        values: values)
    }
    let value: Value
    let target: URL
    do {
      target = try file.resolvedURL()
      guard let data = try file.readContents(of: target) else {
        return DoctorCheck(
          name: name, status: .fail, detail: "\(path) is a link to a missing file", values: values)
      }
      value = try file.decode(data)
    } catch {
      return DoctorCheck(
        name: name, status: .fail, detail: ErrorReport(error).message, values: values)
    }
    let entries = count(value)
    values["entries"] = .integer(Int64(entries))
    values["formatVersion"] = .integer(Int64(file.version))
    var detail =
      "\(path): version \(file.version), \(entries) \(entries == 1 ? "entry" : "entries")"
    var status = DoctorCheck.Status.ok
    DoctorCheck.checkPrivateMode(target.path, values: &values, status: &status, detail: &detail)
    return DoctorCheck(name: name, status: status, detail: detail, values: values)
  }

  func terminalCheck() -> DoctorCheck {
    let parts = [
      terminal.isTTY ? "a terminal" : "not a terminal",
      terminal.color ? "colour" : "no colour",
      "\(terminal.width) columns",
      terminal.unicode ? "UTF-8" : "ASCII",
    ]
    return DoctorCheck(
      name: "terminal", status: .ok, detail: parts.joined(separator: ", "),
      values: [
        "tty": .bool(terminal.isTTY), "color": .bool(terminal.color),
        "width": .integer(Int64(terminal.width)), "utf8": .bool(terminal.unicode),
      ])
  }
}
