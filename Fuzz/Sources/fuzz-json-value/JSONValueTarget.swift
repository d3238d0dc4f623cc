import Courier
import CourierJSON
import Foundation
import FuzzInput

/// Any bytes decoded into `JSONValue`, the type an app reads an untyped payload into, with each key
/// strategy: the decoder must answer with a value or a `DecodingError` (and no other error), never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    var decoder = UTF8JSONDecoder()
    decoder.keyDecodingStrategy = input.byte() & 1 == 0 ? .useDefaultKeys : .convertFromSnakeCase
    let bytes = input.rest
    expectDecodingErrorOnly { _ = try decoder.decode(JSONValue.self, from: bytes) }
    expectDecodingErrorOnly { _ = try decoder.decode([JSONValue].self, from: bytes) }
    expectDecodingErrorOnly { _ = try decoder.decode([String: JSONValue].self, from: bytes) }
    return 0
}
