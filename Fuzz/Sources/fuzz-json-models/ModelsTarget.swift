import CourierJSON
import Foundation
import FuzzInput

/// Any bytes decoded into Codable models under every date, key, data and non-conforming float
/// strategy: the decoder must answer with a value or a `DecodingError` (and no other error), never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    var decoder = UTF8JSONDecoder()
    decoder.dateDecodingStrategy = input.choose(Strategies.dates)
    decoder.keyDecodingStrategy = input.choose(Strategies.keys)
    decoder.dataDecodingStrategy = input.choose(Strategies.data)
    decoder.nonConformingFloatDecodingStrategy = input.choose(Strategies.floats)
    let bytes = input.rest
    expectDecodingErrorOnly { _ = try decoder.decode(Record.self, from: bytes) }
    expectDecodingErrorOnly { _ = try decoder.decode([Record].self, from: bytes) }
    expectDecodingErrorOnly { _ = try decoder.decode(Scalars.self, from: bytes) }
    expectDecodingErrorOnly { _ = try decoder.decode([Date].self, from: bytes) }
    expectDecodingErrorOnly { _ = try decoder.decode([String: Date].self, from: bytes) }
    expectDecodingErrorOnly { _ = try decoder.decode([Int: Int].self, from: bytes) }
    expectDecodingErrorOnly { _ = try decoder.decode(Keyed.self, from: bytes) }
    return 0
}
