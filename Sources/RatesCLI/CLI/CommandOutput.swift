import RateCore

/// What a command hands to the one output layer (``Invocation/write(_:)``): its v2 document
/// (docs/json.md) and how that document reads as text. The command never looks at `--json`;
/// the layer picks the form from the global options.
struct CommandOutput: Sendable {
  /// The document `--json` prints.
  let document: any Encodable & Sendable
  /// The text a person reads, laid out for the terminal.
  let text: @Sendable (TextLayout) -> String
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
  /// else its text.
  func write(_ output: CommandOutput) throws {
    if options.json {
      try printJSON(output.document)
    } else {
      out(output.text(layout))
    }
  }
}
