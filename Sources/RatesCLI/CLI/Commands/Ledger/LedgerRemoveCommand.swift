import RateCore

extension LedgerCommand {
  /// `rates ledger remove <ID>...`.
  struct Remove: RatesCommand {
    static let name = "remove"
    static let aliases = ["rm"]
    static let abstract = "remove exchanges by id (ids are never reused)"
    struct Declared: Declarations {
      let idArgument = Argument.repeating(
        "ID", help: "an exchange's id, as list shows it")
    }
    static let examples = ["rates ledger remove 3", "rates ledger rm 4 5"]

    let ids: [Int]

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      let texts = try scanner.read(Self.declared.idArgument)
      var ids: [Int] = []
      for text in texts {
        let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard let id = Int(digits), id > 0 else {
          throw UsageError.invalid(
            "\(LedgerInput.quoted(text)) is not an exchange id: use the number 'rates ledger "
              + "list' shows")
        }
        ids.append(id)
      }
      self.ids = ids
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try LedgerCommand.remove(ids, invocation)
    }
  }
}
