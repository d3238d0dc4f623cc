import Foundation
import FuzzInput
import HTTPTypes

@testable import Courier

/// Any bytes as a cache file on disk (torn, damaged or forged): a stored response or `nil`, never
/// a trap; and any response the bytes describe written again reads back the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = FuzzInput(start, count)
    let bytes = Data(input.rest)
    _ = CacheEntryCoding.decode(bytes, keyHash: "k")
    // The same bytes as the body and a field of an entry that is intact.
    let text = String(decoding: input.rest.prefix(64), as: UTF8.self)
    var fields = HTTPFields()
    if HTTPField.isValidValue(text) { fields[.eTag] = text }
    let entry = CachedResponse(
        response: HTTPResponse(status: .ok, headerFields: fields),
        body: bytes,
        varyValues: [text],
        requestTime: Date(timeIntervalSince1970: 0),
        responseTime: Date(timeIntervalSince1970: 1)
    )
    let encoded = CacheEntryCoding.encode(entry, keyHash: "k")
    guard let decoded = CacheEntryCoding.decode(encoded, keyHash: "k") else { fatalError("an intact entry was refused") }
    if decoded.body != bytes || decoded.varyValues != [text] || decoded.response.headerFields != fields {
        fatalError("an entry read back differently")
    }
    return 0
}
