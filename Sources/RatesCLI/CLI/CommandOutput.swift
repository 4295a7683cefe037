import RateCore

/// What a command hands to the one output layer (``Invocation/write(_:)``): its v2 document
/// (docs/json.md) and how that document reads as text. The command never looks at `--json`;
/// the layer picks the form from the global options.
struct CommandOutput: Sendable {
  /// The document `--json` prints.
  let document: any Encodable & Sendable
  /// The text a person reads, laid out for the terminal.
  let text: @Sendable (TextLayout) -> String
  /// The `--format csv` form, for a command that has one (its whole text, header first).
  var csv: (@Sendable () -> String)? = nil
  /// The `--format ledger|beancount` price directives, for a command that has them.
  var journal: (@Sendable (PriceExport.Journal) -> String)? = nil

  init(
    document: any Encodable & Sendable, csv: (@Sendable () -> String)? = nil,
    journal: (@Sendable (PriceExport.Journal) -> String)? = nil,
    text: @escaping @Sendable (TextLayout) -> String
  ) {
    self.document = document
    self.csv = csv
    self.journal = journal
    self.text = text
  }
}

/// How ``Invocation/streamForm(board:)`` writes a stream of updates.
enum StreamForm: Sendable, Equatable {
  /// Redrawn in place on the terminal.
  case board
  /// One plain line a record.
  case lines
  /// One JSON document a line (NDJSON).
  case json
}

extension OutputFormat {
  /// The journal a `--format ledger|beancount` names; `nil` for the other formats.
  var journal: PriceExport.Journal? {
    switch self {
    case .ledger: return .ledger
    case .beancount: return .beancount
    default: return nil
    }
  }
}

/// What text output may ask of the terminal: colours, width and whether it shows Unicode.
struct TextLayout: Sendable {
  /// Bold and dim, when the terminal shows colour.
  let style: Style
  /// The columns to fit.
  let width: Int
  /// Whether to draw with ASCII alone.
  let ascii: Bool
  /// Whether stdout is a terminal (piped text keeps one record a line, for grep).
  let isTerminal: Bool
}

extension Invocation {
  /// The layout of this run's terminal.
  var layout: TextLayout {
    TextLayout(
      style: style, width: terminal.width, ascii: !terminal.unicode, isTerminal: terminal.isTTY)
  }

  /// Writes `output` in the form the global options ask for: the document with `--json`,
  /// its CSV with `--format csv` and its directives with `--format ledger|beancount` (when it
  /// has them), else its text; an empty text prints nothing.
  func write(_ output: CommandOutput) throws {
    if options.json {
      try printJSON(output.document)
    } else if options.format == .csv, let csv = output.csv {
      context.writeOut(csv())
    } else {
      // An empty text (nothing added, no directive) prints nothing, not a blank line.
      let text = output.journal.flatMap { journal in options.format?.journal.map(journal) }
        ?? output.text(layout)
      if !text.isEmpty { out(text) }
    }
  }

  /// How a stream of updates (`watch`) is written: a board redrawn in place on a terminal when
  /// the command draws one, NDJSON with `--json` (one document a line, each with `version`),
  /// else plain lines: the streaming form of ``write(_:)``.
  func streamForm(board: Bool) -> StreamForm {
    if options.json { return .json }
    return board && terminal.isTTY ? .board : .lines
  }

  /// Refuses the `--format` this run asked for when it is one of `formats`, before any work
  /// (a declared exclusion the command names, such as beancount for hourly prices).
  func refuse(formats: Set<OutputFormat>, _ message: @autoclosure () -> String) throws {
    if let format = options.format, formats.contains(format) {
      throw UsageError.invalid(message())
    }
  }
}
