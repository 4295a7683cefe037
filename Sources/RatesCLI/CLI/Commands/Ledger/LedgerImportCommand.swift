import RateCore

extension LedgerCommand {
  /// `rates ledger import <FILE.csv>`.
  struct Import: RatesCommand {
    static let name = "import"
    static let abstract =
      "add the exchanges of a CSV file (as export writes it); every line is checked first, and "
      + "one bad line imports nothing"
    static let arguments = [
      ArgumentSpec(
        name: "FILE.csv", help: "the file to read, or - for standard input",
        completion: .files)
    ]
    static let discussion = LedgerCommand.csvColumns
    static let examples = ["rates ledger import ledger.csv"]

    let path: String

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      guard let path = scanner.positional() else { throw UsageError.missingArgument("file") }
      self.path = path
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try await LedgerCommand(action: .importFile(path)).run(invocation)
    }
  }
}
