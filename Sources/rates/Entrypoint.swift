import RatesCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `rates` executable: adapts the process to ``RatesCLI`` and nothing more.
@main
struct Entrypoint {
  static func main() {
    // A reader that closes the pipe ends the output, not the process: writes
    // then fail with EPIPE, which RatesCLI settles quietly.
    signal(SIGPIPE, SIG_IGN)
    // Synchronous: the command runs on this thread, and no thread pool starts unless
    // the command itself needs another thread (a transfer, a signal watcher).
    exit(RatesCLI.runOnThisThread(Array(CommandLine.arguments.dropFirst()), context: .live()))
  }
}
