import Foundation
import FuzzInput

@testable import Courier

/// A `Set-Cookie` value as Foundation joins repeated fields (", "), through the splitter the
/// URLSession transport uses, then each value through the parser the cookie jar uses. Besides
/// never trapping, the splitter only cuts at commas and trims spaces, and splitting its own
/// output joined again gives that output back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let secure = input.byte() & 1 == 1
    let joined = input.restText
    let values = SetCookieSplitter.values(in: joined)
    func stripped(_ text: String) -> [UInt8] {
        text.utf8.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") && $0 != UInt8(ascii: ",") }
    }
    precondition(stripped(values.joined(separator: ",")) == stripped(joined), "the splitter lost or added bytes")
    precondition(values.allSatisfy { !$0.isEmpty && $0.first != " " && $0.last != " " }, "a value is empty or keeps its spaces")
    precondition(SetCookieSplitter.values(in: values.joined(separator: ", ")) == values, "splitting the joined values again differs")
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    for value in values {
        _ = SetCookieParser.cookie(from: value, host: "api.example.com", path: "/a/b", secure: secure, now: now)
    }
    return 0
}
