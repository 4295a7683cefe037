import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

@Suite struct NullEncodedTests {
  struct Document: Codable, Equatable {
    @NullEncoded var change: Double?
    var name: String
  }

  @Test func nilIsAnExplicitNullAndRoundTrips() throws {
    let encoder = JSONCoders.encoder()
    let empty = try encoder.encode(Document(change: nil, name: "x"))
    expectEqual(String(decoding: empty, as: UTF8.self), #"{"change":null,"name":"x"}"#)
    let full = try encoder.encode(Document(change: 1.5, name: "x"))
    expectEqual(String(decoding: full, as: UTF8.self), #"{"change":1.5,"name":"x"}"#)
    expectEqual(try JSONCoders.decoder().decode(Document.self, from: empty), Document(change: nil, name: "x"))
    expectEqual(try JSONCoders.decoder().decode(Document.self, from: full).change, 1.5)
  }
}
