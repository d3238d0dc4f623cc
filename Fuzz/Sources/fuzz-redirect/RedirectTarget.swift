import Foundation
import FuzzInput
import HTTPTypes

@testable import Courier

/// Any `Location` on any redirect status, for a GET or a POST from an https or http origin, with
/// or without a body allowed to another origin, through the redirect decision the client takes:
/// a next request, `nil` or a `CourierError`, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let status = input.choose([301, 302, 303, 307, 308])
    let method = input.choose([HTTPRequest.Method.get, .post, .head, .put])
    let originText = input.choose(["https://api.example.com", "http://127.0.0.1:8080", "https://[::1]:8443"])
    let flags = input.byte()
    let allowsInsecure = flags & 1 == 1
    let allowsCrossOriginBody = flags & 2 == 2
    let location = input.restText
    guard let origin = URL(string: originText), HTTPField.isValidValue(location) else { return 0 }
    var response = HTTPResponse(status: .init(code: status))
    response.headerFields[.location] = location
    var request = HTTPRequest(method: method, scheme: origin.scheme, authority: origin.host, path: "/v1/items?page=2")
    request.headerFields[.authorization] = "Bearer token"
    _ = try? Redirect.next(
        after: response,
        to: request,
        origin: origin,
        hasBody: method == .post || method == .put,
        bodyIsReplayable: method != .post,
        allowsInsecure: allowsInsecure,
        allowsCrossOriginBody: allowsCrossOriginBody
    )
    return 0
}
