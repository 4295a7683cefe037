import RateCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Doctor {
  /// The ledger: it must parse (every line), have a known format and be mode 0600; a format 1
  /// file or an incomplete last line only warns.
  func ledgerCheck(_ store: LedgerStore) -> DoctorCheck {
    let path = store.url.path
    var values: [String: DoctorCheck.Value] = ["path": .string(path)]
    var info = stat()
    guard lstat(path, &info) == 0 else {
      if errno == ENOENT {
        return DoctorCheck(
          name: "ledger", status: .ok, detail: "none yet (\(path))", values: values)
      }
      return DoctorCheck(
        name: "ledger", status: .fail, detail: "cannot read \(path): \(AtomicFile.lastError())",
        values: values)
    }
    let summary: LedgerStore.Summary
    do {
      summary = try store.summary()
    } catch {
      return DoctorCheck(
        name: "ledger", status: .fail, detail: ErrorReport(error).message, values: values)
    }
    values["entries"] = .integer(Int64(summary.entries))
    values["formatVersion"] = .integer(Int64(summary.version))
    var detail =
      "\(path): version \(summary.version), \(summary.entries) "
      + (summary.entries == 1 ? "entry" : "entries")
    var status = DoctorCheck.Status.ok
    if summary.version < LedgerStore.formatVersion {
      status = .warn
      detail += "; the next change converts it to format \(LedgerStore.formatVersion)"
    }
    if summary.incompleteLastLine > 0 {
      status = .warn
      detail += "; an incomplete last line (an interrupted write) is ignored"
    }
    DoctorCheck.checkPrivateMode(
      summary.target.path, values: &values, status: &status, detail: &detail)
    return DoctorCheck(name: "ledger", status: status, detail: detail, values: values)
  }
}

extension DoctorCheck {
  /// A private file's mode (the user's data, the ledger): recorded as `mode`; wider than 0600
  /// is a warning that names the `chmod` that fixes it. Nothing for a file `stat` cannot read.
  static func checkPrivateMode(
    _ path: String, values: inout [String: Value], status: inout Status, detail: inout String
  ) {
    var info = stat()
    guard stat(path, &info) == 0 else { return }
    let mode = Int(info.st_mode) & 0o777
    values["mode"] = .string(NumberText.padded(mode, width: 4, radix: 8))
    if mode & 0o077 != 0 {
      status = .warn
      detail +=
        "; mode \(NumberText.padded(mode, width: 4, radix: 8)) is wider than 0600: chmod 600 "
        + DataFileError.shellQuoted(path)
    }
  }
}
