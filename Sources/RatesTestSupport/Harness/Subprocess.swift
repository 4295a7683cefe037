import Foundation

/// Runs `executable` with `arguments` and awaits its exit without holding a thread of the
/// concurrency pool (as few threads as the cores): its output is drained on threads of their
/// own and its exit resumes the caller, so a test that runs a process never stalls the
/// other tests. `rates` itself runs through ``BinaryRunner``, which calls this.
///
/// - Parameters:
///   - environment: the complete environment; nil inherits the test process's.
///   - directory: the working directory; nil keeps the test process's.
///   - stdin: written to standard input, then closed; `nil` for `/dev/null`.
///   - mergingErrors: standard error into the same pipe as standard output (`2>&1`).
///   - hangGuard: seconds after which a process still running is killed (SIGTERM); only a true
///     hang reaches it, and the result then says so on stderr.
public func runProcess(
  _ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
  directory: URL? = nil, stdin: String? = nil, mergingErrors: Bool = false,
  hangGuard: Double = 60
) async throws -> CommandResult {
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  if let environment { process.environment = environment }
  if let directory { process.currentDirectoryURL = directory }
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = mergingErrors ? out : err
  let input = Pipe()
  process.standardInput = stdin == nil ? FileHandle.nullDevice : input
  // Drain both pipes on their own threads so a chatty child never blocks.
  let outData = Recorder<Data>()
  let errData = Recorder<Data>()
  let killed = Recorder<Bool>()
  let group = DispatchGroup()
  for (pipe, sink) in mergingErrors ? [(out, outData)] : [(out, outData), (err, errData)] {
    group.enter()
    Thread.detachNewThread {
      sink.append(pipe.fileHandleForReading.readDataToEndOfFile())
      group.leave()
    }
  }
  let status: Int32 = try await withCheckedThrowingContinuation { continuation in
    process.terminationHandler = { process in
      group.wait()
      continuation.resume(returning: process.terminationStatus)
    }
    do {
      try process.run()
    } catch {
      process.terminationHandler = nil
      continuation.resume(throwing: error)
      return
    }
    if let stdin {
      input.fileHandleForWriting.write(Data(stdin.utf8))
      try? input.fileHandleForWriting.close()
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + hangGuard) {
      if process.isRunning {
        killed.append(true)
        process.terminate()
      }
    }
  }
  var stderr = String(decoding: errData.all.first ?? Data(), as: UTF8.self)
  if killed.count > 0 {
    stderr += "\n[runProcess: killed, still running after \(hangGuard) s]\n"
  }
  return CommandResult(
    status: status,
    stdout: String(decoding: outData.all.first ?? Data(), as: UTF8.self),
    stderr: stderr)
}
