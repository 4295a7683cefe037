/// Reading and writing comma-separated values as RFC 4180 describes them.
///
/// Writing: fields are separated by `,` and every record, the last included, ends with CR LF.
/// A field is quoted when it contains a comma, a double quote, CR or LF; a quote inside a
/// quoted field is doubled (`say "hi"` becomes `"say ""hi"""`). Nothing else is changed, so
/// reading what was written gives back the same fields.
///
/// Reading is RFC 4180 with the usual leniencies: records may end with CR LF, LF or a lone CR;
/// the last record may lack its line break; a leading UTF-8 byte order mark is skipped; empty
/// lines are skipped. A quoted field may hold commas, quotes (doubled) and line breaks, which
/// are kept as written. Anything else ambiguous is an error naming the line: a quote inside an
/// unquoted field, text after a closing quote, a quoted field that never ends.
///
/// ```swift
/// let text = CSV.document(header: ["date", "note"], rows: [["2026-11-22", "cash, at home"]])
/// // "date,note\r\n2026-11-22,\"cash, at home\"\r\n"
/// let records = try CSV.parse(text)  // [Record(line: 1, …), Record(line: 2, …)]
/// ```
public enum CSV {
  /// One record read from CSV text.
  public struct Record: Equatable, Sendable {
    /// The 1-based line on which the record starts (a quoted line break makes a record span
    /// several lines).
    public var line: Int
    /// The fields, unquoted.
    public var fields: [String]
  }

  /// Why CSV text could not be read.
  public struct ParseError: Error, Equatable, Sendable, LocalizedError {
    /// The 1-based line where the problem is.
    public var line: Int
    /// What is wrong, as a short lower-case phrase.
    public var reason: String

    /// `line 3: <reason>`.
    public var errorDescription: String? { "line \(line): \(reason)" }
  }

  // MARK: - Writing

  /// One field as it appears in CSV: quoted when it holds `,`, `"`, CR or LF.
  public static func field(_ text: String) -> String {
    let needsQuotes = text.unicodeScalars.contains {
      $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n"
    }
    guard needsQuotes else { return text }
    return "\"" + text.replacing("\"", with: "\"\"") + "\""
  }

  /// One record: the fields joined with `,`, ending with CR LF.
  public static func line(_ fields: [String]) -> String {
    fields.map(field).joined(separator: ",") + "\r\n"
  }

  /// A whole document: the header record, then every row.
  public static func document(header: [String], rows: [[String]]) -> String {
    var text = line(header)
    for row in rows { text += line(row) }
    return text
  }

  // MARK: - Reading

  /// Reads every record of `text`, skipping empty lines.
  ///
  /// - Throws: ``ParseError`` for the first malformed spot.
  public static func parse(_ text: String) throws(ParseError) -> [Record] {
    var records: [Record] = []
    var fields: [String] = []
    var field = String.UnicodeScalarView()
    var line = 1
    var recordLine = 1
    var scalars = text.unicodeScalars[...]
    if scalars.first == "\u{FEFF}" { scalars.removeFirst() }

    /// Whether anything of the current record has been read (so an empty line is skipped).
    var started = false
    func endField() {
      fields.append(String(field))
      field = String.UnicodeScalarView()
    }
    func endRecord() {
      if started {
        endField()
        records.append(Record(line: recordLine, fields: fields))
      }
      fields = []
      field = String.UnicodeScalarView()
      started = false
    }

    while let scalar = scalars.popFirst() {
      switch scalar {
      case "\r", "\n":
        if scalar == "\r", scalars.first == "\n" { scalars.removeFirst() }
        endRecord()
        line += 1
        recordLine = line
      case ",":
        started = true
        endField()
      case "\"":
        guard field.isEmpty else {
          throw ParseError(
            line: line,
            reason: "a double quote inside an unquoted field (quote the whole field and "
              + "double the quote)")
        }
        started = true
        try readQuoted(&scalars, into: &field, line: &line)
      default:
        started = true
        field.append(scalar)
      }
    }
    endRecord()
    return records
  }

  /// Reads a quoted field's body after its opening quote, up to and including
  /// the closing quote; a doubled quote is one quote, and line breaks inside
  /// count as lines.
  static func readQuoted(
    _ scalars: inout Substring.UnicodeScalarView, into field: inout String.UnicodeScalarView,
    line: inout Int
  ) throws(ParseError) {
    let opened = line
    var closed = false
    while let inner = scalars.popFirst() {
      if inner == "\"" {
        if scalars.first == "\"" {
          scalars.removeFirst()
          field.append("\"")
          continue
        }
        closed = true
        break
      }
      if inner == "\n" || (inner == "\r" && scalars.first != "\n") { line += 1 }
      field.append(inner)
    }
    guard closed else {
      throw ParseError(line: opened, reason: "a quoted field is never closed")
    }
    if let next = scalars.first, next != ",", next != "\r", next != "\n" {
      throw ParseError(
        line: line,
        reason: "text after the closing quote of a field (double a quote "
          + "inside a quoted field)")
    }
  }
}
