import RatesCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `rates` executable: adapts the process to ``RatesCLI`` and nothing more.
@main
struct Entrypoint {
  static func main() async {
    // A reader that closes the pipe ends the output, not the process: writes
    // then fail with EPIPE, which RatesCLI settles quietly.
    signal(SIGPIPE, SIG_IGN)
    let status = await RatesCLI.run(Array(CommandLine.arguments.dropFirst()), context: .live())
    exit(status)
  }
}
