import Foundation
import FuzzInput

@testable import Courier

/// Any `Set-Cookie` value, from a host and path the leading bytes choose, through the parser the
/// cookie jar uses: a cookie or `nil`, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let host = input.choose(["example.com", "api.example.com", "127.0.0.1", "[::1]", "localhost", "co.uk"])
    let path = input.choose(["/", "/a/b", "", "/a/", "//"])
    let secure = input.byte() & 1 == 1
    let value = input.restText
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    if let cookie = SetCookieParser.cookie(from: value, host: host, path: path, secure: secure, now: now) {
        _ = cookie.matches(host: host, path: path, secure: secure, at: now)
        _ = cookie.hasExpired(at: now)
    }
    return 0
}
