import RateCore

/// What a command hands to the one output layer (``Invocation/write(_:)``): its v2 document
/// (docs/json.md), its export forms and how it reads as text. The command never looks at
/// `--json` or `--format`; the layer picks the form from the global options.
struct CommandOutput: Sendable {
  /// One export form: the whole text to write, as is (a CSV document, price directives).
  typealias Export = @Sendable () throws -> String

  /// How the text form is written.
  enum Text: Sendable {
    /// Laid out for the terminal in one piece; `pages` sends a long one through the pager
    /// on a terminal (RATES_PAGER, PAGER, else less -FRX).
    case rendered(pages: Bool, @Sendable (TextLayout) -> String)
    /// Written by the command itself as it goes (a long list read page by page).
    case streamed(@Sendable () throws -> Void)
  }

  /// The `--json` text: the document, encoded only when asked for.
  let json: @Sendable () throws -> String
  /// The text a person reads.
  let body: Text
  /// The export forms (`--format csv`, `ledger`, `beancount`) the command has, each whole.
  var exports: Exports = [:]

  /// The export forms, by format.
  typealias Exports = [OutputFormat: Export]

  init(
    document: any Encodable & Sendable, csv: (@Sendable () -> String)? = nil,
    journal: (@Sendable (PriceExport.Journal) -> String)? = nil,
    exports: Exports = [:], pages: Bool = false,
    text: @escaping @Sendable (TextLayout) -> String
  ) {
    var exports = exports
    if let journal {
      exports[.ledger] = { Self.lines(journal(.ledger)) }
      exports[.beancount] = { Self.lines(journal(.beancount)) }
    }
    self.init(
      json: { try Self.encoded(document) }, exports: exports, csv: csv,
      body: .rendered(pages: pages, text))
  }

  /// An output whose JSON text the command writes itself (``HistoryDocument/prettyJSON()``)
  /// or whose text it streams.
  init(
    json: @escaping @Sendable () throws -> String, exports: Exports = [:],
    csv: (@Sendable () -> String)? = nil, body: Text
  ) {
    self.json = json
    self.body = body
    self.exports = exports
    if let csv { self.exports[.csv] = csv }
  }

  /// `document` as `--json` prints it: pretty, sorted, with the vocabulary's `version`.
  static func encoded(_ document: some Encodable) throws -> String {
    let data = try JSONCoders.encoder(pretty: true).encode(Versioned(document))
    return String(decoding: data, as: UTF8.self)
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

extension TextLayout {
  /// `table` fitted to the width, and under it, dimmed, the line naming the columns it left
  /// out for width (``TextTable/hiddenNote(_:width:)``; not for a table without a header
  /// row, whose columns have no names): every table of a command that drops columns says
  /// so the same way.
  func render(_ table: TextTable) -> [String] {
    let (lines, hidden) = table.renderNotingHidden(maxWidth: width, ascii: ascii)
    guard table.showsHeader else { return lines }
    return lines + TextTable.hiddenNote(hidden, width: width).map(style.dim)
  }
}

extension Invocation {
  /// The layout of this run's terminal.
  var layout: TextLayout { TextLayout(terminal, options: options) }

  /// Writes `output` in the form the global options ask for (``CommandOutput/write(options:context:layout:)``).
  func write(_ output: CommandOutput) throws {
    try output.write(options: options, context: context, layout: layout)
  }

  /// How a stream of updates (`watch`) is written: a board redrawn in place on a terminal when
  /// the command draws one, NDJSON with `--json` (one document a line, each with `version`),
  /// else plain lines: the streaming form of ``write(_:)``.
  func streamForm(board: Bool) -> StreamForm {
    if options.mode == .document { return .json }
    return board && terminal.isTTY ? .board : .lines
  }

  /// Refuses the `--format` this run asked for when it is one of `formats`, before any work
  /// (a declared exclusion the command names, such as beancount for hourly prices).
  func refuse(formats: Set<OutputFormat>, _ message: @autoclosure () -> String) throws {
    try refuse(formats: formats) { _ in message() }
  }

  /// Refuses the `--format` (or `--json`) this run asked for when it is one of `formats`,
  /// with the line `message` writes for it.
  func refuse(formats: Set<OutputFormat>, _ message: (OutputFormat) -> String) throws {
    if let format = options.format, formats.contains(format) {
      throw UsageError.invalid(message(format))
    }
  }
}

extension CommandOutput {
  /// The price exports of a daily or hourly series: its CSV, and ledger or beancount `P`
  /// directives naming `asset` (the coin or currency the command resolved for it). Beancount
  /// dates a price by day only: an hourly command refuses it before fetching.
  static func priceExports<Key>(_ series: Series<Key>, resolved asset: Asset?) -> Exports {
    let base = CommodityName.of(CurrencyCode(series.base), source: series.source, resolved: asset)
    let quote = CommodityName.of(series.quote, source: series.source, resolved: asset)
    func directives(_ journal: PriceExport.Journal) -> Export {
      { lines(PriceExport.directives(series, base: base, quote: quote, journal: journal)) }
    }
    return [
      .csv: { PriceExport.csv(series) }, .ledger: directives(.ledger),
      .beancount: directives(.beancount),
    ]
  }

  /// Lines as `out` writes them: with a final newline, and nothing at all for none.
  static func lines(_ text: String) -> String { text.isEmpty ? "" : text + "\n" }
}

extension CommandOutput {
  /// The one choice of form, for a command's output and for what is written before any
  /// command runs (`--version`, help): the document with `--json`, the export `--format`
  /// asks for (when this output has it), else the text, laid out by `layout`.
  func write(
    options: GlobalOptions, context: CommandContext, layout: @autoclosure () -> TextLayout
  ) throws {
    switch options.mode {
    case .document: context.writeOut(try json() + "\n")
    case .export(let format):
      guard let export = exports[format] else { return try writeText(context, layout) }
      context.writeOut(try export())
    case .text: try writeText(context, layout)
    }
  }

  /// The text, laid out by `layout`: paged when it asks to be, streamed when it writes itself.
  private func writeText(_ context: CommandContext, _ layout: () -> TextLayout) throws {
    switch body {
    case .rendered(let pages, let render):
      // An empty text (nothing added, no directive) prints nothing, not a blank line.
      let text = render(layout())
      if !text.isEmpty && !(pages && context.page(text + "\n")) { context.writeOut(text + "\n") }
    case .streamed(let write): try write()
    }
  }

  /// A document whose text is written as it is (help through the pager, the version line).
  init(document: any Encodable & Sendable, writing text: @escaping @Sendable () throws -> Void) {
    self.init(json: { try Self.encoded(document) }, body: .streamed(text))
  }
}

extension TextLayout {
  /// The layout of `terminal`, without colour for the JSON document (``Invocation/style``).
  init(_ terminal: TerminalCapabilities, options: GlobalOptions) {
    self.init(
      style: Style(enabled: terminal.color && options.mode != .document), width: terminal.width,
      ascii: !terminal.unicode, isTerminal: terminal.isTTY)
  }
}
