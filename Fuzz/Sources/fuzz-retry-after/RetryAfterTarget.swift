import Foundation
import FuzzInput
import HTTPTypes

@testable import Courier

/// Any `Retry-After` value through the parser, then through the retry decision that acts on it:
/// a delay or `nil`, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = FuzzInput(start, count)
    let value = input.restText
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    _ = RetryAfter.delay(from: value, now: now)
    var response = HTTPResponse(status: .serviceUnavailable)
    if let field = HTTPField.Name("Retry-After"), HTTPField.isValidValue(value) {
        response.headerFields[field] = value
    }
    let request = HTTPRequest(method: .get, scheme: "https", authority: "example.com", path: "/")
    _ = RetryPolicy.exponential().decision(after: .response(response), of: request, attempt: 1, random: 0.5, now: now)
    return 0
}
