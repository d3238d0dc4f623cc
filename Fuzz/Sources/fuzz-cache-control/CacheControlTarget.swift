import FuzzInput
import HTTPTypes

@testable import Courier

/// Any `Cache-Control`, `Pragma` and `Vary` lines through the parsers the cache reads them with:
/// directives and names, never a trap, every number within RFC 9111's `delta-seconds` bound.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = FuzzInput(start, count)
    let text = input.restText
    var fields = HTTPFields()
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let value = String(line)
        guard HTTPField.isValidValue(value) else { continue }
        let name: HTTPField.Name = [.cacheControl, .vary, CacheControl.pragma][index % 3]
        fields.append(HTTPField(name: name, value: value))
    }
    let control = CacheControl(fields)
    for number in [control.maxAge, control.minFresh, control.staleIfError, control.staleWhileRevalidate].compactMap({ $0 }) {
        if number < 0 || number > CacheControl.largestDelta { fatalError("delta-seconds \(number) out of bounds") }
    }
    _ = CacheControl(parsing: text)
    let vary = VaryFields(fields)
    if Set(vary.names).count != vary.names.count { fatalError("a Vary name listed twice") }
    _ = VaryFields.values(of: vary.names, in: fields, credentialFields: .default, advertisedCodings: [.gzip])
    return 0
}
