import FuzzInput

@testable import Courier

/// Any `Content-Length` value through the reader every transport uses: a length or `nil`, never a
/// trap, and never a negative length.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = FuzzInput(start, count)
    if let length = ContentLength.value(of: input.restText), length < 0 {
        fatalError("a negative length: \(length)")
    }
    return 0
}
