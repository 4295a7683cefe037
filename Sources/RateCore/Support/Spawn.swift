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
/// commands run side by side). A child gets an end only as one of its standard streams,
/// through ``spawnProgram(_:_:environment:directory:streams:)``.
/// - Returns: the reading and writing ends, or nil when no pipe could be made.
package func closeOnExecPipe() -> (read: Int32, write: Int32)? {
  var ends: [Int32] = [-1, -1]
  // Swift's Glibc module has no pipe2, so the flag is set just after: a spawn in those few
  // instructions could still inherit the ends, where before it could for the pager's whole life.
  guard pipe(&ends) == 0 else { return nil }
  for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
  return (ends[0], ends[1])
}

/// Starts the program at `path` with `posix_spawn` (the pager, and the test harness's
/// children): never Foundation's `Process`, which is outside FoundationEssentials and whose
/// child-exit handling crashed libdispatch under the test suite (swift-subprocess#47).
///
/// - Parameters:
///   - arguments: the whole argument vector, its name first.
///   - environment: `NAME=value` entries; nil gives the child this process's environment.
///   - directory: the child's working directory; nil keeps this process's.
///   - streams: descriptors the child gets as its standard streams, keyed by the number it
///     sees (0, 1, 2). Everything else this process opened close-on-exec stays closed there.
/// - Returns: the child's pid, or nil when it could not be started (`errno` says why).
package func spawnProgram(
  _ path: String, _ arguments: [String], environment: [String]? = nil,
  directory: String? = nil, streams: [Int32: Int32]
) -> pid_t? {
  #if canImport(Darwin)
    var actions: posix_spawn_file_actions_t?
  #else
    var actions = posix_spawn_file_actions_t()
  #endif
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  for (target, source) in streams.sorted(by: { $0.key < $1.key }) {
    posix_spawn_file_actions_adddup2(&actions, source, target)
  }
  if let directory, !addChangeDirectory(&actions, directory) { return nil }
  let argv = arguments.map { strdup($0) } + [nil]
  let entries = environment ?? ProcessInfo.processInfo.environment.map { $0.key + "=" + $0.value }
  let envp = entries.map { strdup($0) } + [nil]
  defer { for pointer in argv + envp { free(pointer) } }
  var pid = pid_t()
  let status = posix_spawn(&pid, path, &actions, nil, argv, envp)
  guard status == 0 else {
    errno = status
    return nil
  }
  return pid
}

#if canImport(Darwin)
  private func addChangeDirectory(
    _ actions: inout posix_spawn_file_actions_t?, _ directory: String
  ) -> Bool {
    posix_spawn_file_actions_addchdir_np(&actions, directory) == 0
  }
#else
  /// glibc has had `posix_spawn_file_actions_addchdir_np` since 2.29, but Swift's Glibc module
  /// does not declare it (it is behind `_GNU_SOURCE`), so it is looked up by name.
  private func addChangeDirectory(
    _ actions: inout posix_spawn_file_actions_t, _ directory: String
  ) -> Bool {
    typealias AddChangeDirectory =
      @convention(c) (
        UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
      ) -> Int32
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addchdir_np") else {
      errno = ENOSYS
      return false
    }
    return unsafeBitCast(symbol, to: AddChangeDirectory.self)(&actions, directory) == 0
  }
#endif
