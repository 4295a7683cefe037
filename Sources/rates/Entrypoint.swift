import Foundation
import RatesCLI

/// The `rates` executable: adapts the process to ``RatesCLI`` and nothing more.
@main
struct Entrypoint {
  static func main() async {
    let status = await RatesCLI.run(Array(CommandLine.arguments.dropFirst()), context: .live())
    exit(status)
  }
}
