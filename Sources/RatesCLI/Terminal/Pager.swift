import RateCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Long output on a terminal goes through a pager, as `git log` does: the
/// command in `RATES_PAGER`, else `PAGER`, else `less -FRX` (which quits at
/// once when the text fits, keeps colours and leaves the text on screen).
/// Never when stdout is not a terminal, and not when the pager is set to ""
/// or `cat`; a pager that is not installed or cannot start falls back to printing.
enum Pager {
  /// The pager's command words, or nil for none.
  static func command(environment: [String: String]) -> [String]? {
    let configured =
      EnvironmentVariable.ratesPager.raw(in: environment)
      ?? EnvironmentVariable.pager.raw(in: environment)
    guard let configured else { return ["less", "-FRX"] }
    let words = configured.split(separator: " ").map(String.init)
    guard let first = words.first, first != "cat" else { return nil }
    return words
  }

  /// Whether `lineCount` lines should be paged: on a terminal, when they do
  /// not fit its `rows` (less one for the prompt).
  static func shouldPage(lineCount: Int, rows: Int?, isTTY: Bool) -> Bool {
    guard isTTY, let rows else { return false }
    return lineCount > rows - 1
  }

  /// The live pager: pages `text` when stdout is a terminal it overflows;
  /// false when it printed nothing (the caller prints).
  static func live(_ text: String, environment: [String: String]) -> Bool {
    let rows = TerminalScreen.windowSize(of: STDOUT_FILENO)?.rows
    let lineCount = text.reduce(into: 0) { count, character in if character == "\n" { count += 1 } }
    guard shouldPage(lineCount: lineCount, rows: rows, isTTY: isatty(STDOUT_FILENO) == 1),
      let command = command(environment: environment)
    else { return false }
    return run(text, command: command, path: EnvironmentVariable.path.raw(in: environment))
  }

  /// Runs `command` with `text` on its stdin and waits for it; false when it could not
  /// start (not found in `path`, not executable, or exit 127 or 126): nothing was shown,
  /// and nothing was said, as the caller prints the text instead.
  static func run(_ text: String, command: [String], path: String?) -> Bool {
    guard let name = command.first, let executable = executable(name, path: path) else {
      return false
    }
    guard let pipe = closeOnExecPipe() else { return false }
    let ends = [pipe.read, pipe.write]
    guard let pid = spawnProgram(executable, command, streams: [STDIN_FILENO: ends[0]]) else {
      close(ends[0])
      close(ends[1])
      return false
    }
    close(ends[0])
    // A pager quit early (q) closes the pipe: the rest is dropped (EPIPE, SIGPIPE ignored).
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { break }
      bytes = bytes.dropFirst(written)
    }
    close(ends[1])
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    let exited = status & 0x7F == 0
    return !(exited && [126, 127].contains((status >> 8) & 0xFF))
  }

  /// `name` found as `PATH` would find it: itself when it holds a `/`, else the first
  /// executable file of that name in a directory of `path`.
  static func executable(_ name: String, path: String?) -> String? {
    let candidates =
      name.contains("/")
      ? [name]
      : (path ?? "").split(separator: ":").map { ($0.isEmpty ? "." : String($0)) + "/" + name }
    return candidates.first {
      access($0, X_OK) == 0 && FileManager.default.isDirectory(atPath: $0) == false
    }
  }
}
