import FuzzInput

@testable import Courier

/// Any `Content-Range` value through the reader resumable downloads use: a range or `nil`, never
/// a trap, and never a range that contradicts itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = FuzzInput(start, count)
    switch ContentRange.parse(input.restText) {
    case .bytes(let first, let last, let length)?:
        if first < 0 || last < first { fatalError("a range that ends before it starts: \(first)-\(last)") }
        if let length, last >= length { fatalError("a range past its length: \(last)/\(length)") }
    case .unsatisfied(let length)?:
        if length < 0 { fatalError("a negative length: \(length)") }
    case nil:
        break
    }
    return 0
}
