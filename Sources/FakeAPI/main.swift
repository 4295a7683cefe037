import Foundation
import RatesTestSupport

// `fake-api`: serves the tests' fake CoinGecko, CoinDesk and Frankfurter APIs on
// 127.0.0.1 for the benchmark and demo scripts (see `fake-api --help`). Prints the
// port on stdout, then serves until SIGTERM or SIGINT, which end it with status 0.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

func fail(_ message: String, status: Int32) -> Never {
  FileHandle.standardError.write(Data("fake-api: \(message)\n".utf8))
  exit(status)
}

let options: FakeAPIService.Options
do {
  options = try FakeAPIService.Options(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
  fail("\(error)\n\(FakeAPIService.usage)", status: 64)
}
if options.help {
  FileHandle.standardOutput.write(Data(FakeAPIService.usage.utf8))
  exit(0)
}

let service = FakeAPIService(options: options) { line in
  FileHandle.standardError.write(Data((line + "\n").utf8))
}
let server: LoopbackServer
do {
  server = try LoopbackServer(port: options.port, handler: service.handle)
} catch {
  fail("\(error)", status: 69)
}
if let portFile = options.portFile {
  do {
    try Data("\(server.port)\n".utf8).write(to: URL(fileURLWithPath: portFile), options: .atomic)
  } catch {
    fail("cannot write \(portFile): \(error.localizedDescription)", status: 73)
  }
}
FileHandle.standardOutput.write(Data("\(server.port)\n".utf8))

let stops = [SIGTERM, SIGINT].map { number in
  signal(number, SIG_IGN)
  let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
  source.setEventHandler {
    server.stop()
    exit(0)
  }
  source.resume()
  return source
}
dispatchMain()
