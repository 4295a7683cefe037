#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension ExitCode {
  /// The exit code after an ending signal, once the terminal is restored:
  /// 128 + the signal for `SIGHUP` (129), `SIGINT` (130) and `SIGTERM` (143),
  /// as a shell reports a process that died of it; `SIGQUIT` counts as an
  /// interruption (130).
  init(endingSignal number: Int32) {
    switch number {
    case SIGTERM: self = .terminated
    case SIGHUP: self = .hangup
    default: self = .interrupted
    }
  }
}
