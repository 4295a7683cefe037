#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pipe whose two ends are closed in any program this process starts (`FD_CLOEXEC`).
///
/// A plain `pipe()` end is inherited by every child spawned meanwhile, by any thread: a
/// pager started while another pager's pipe was open kept that pipe's writing end, so
/// neither saw the end of its input and both waited for ever (seen in the test suite, where
/// commands run side by side). A child gets an end only as its stdin, through `dup2`.
/// - Returns: the reading and writing ends, or nil when no pipe could be made.
func closeOnExecPipe() -> (read: Int32, write: Int32)? {
  var ends: [Int32] = [-1, -1]
  // Swift's Glibc module has no pipe2, so the flag is set just after: a spawn in those few
  // instructions could still inherit the ends, where before it could for the pager's whole life.
  guard pipe(&ends) == 0 else { return nil }
  for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
  return (ends[0], ends[1])
}
