import Foundation
import FuzzInput
import HTTPTypes

@testable import Courier

/// Any response fields (`Date`, `Expires`, `Age`, `Last-Modified`, `Cache-Control`, `ETag`) through
/// the cache's freshness, age and validator logic, and a 304 with any fields merged into it: a
/// bounded number of seconds, never a trap, and never a body field taken from the 304.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let shift = Double(Int8(bitPattern: input.byte())) * 1_000_000
    let names: [HTTPField.Name] = [.date, .expires, .age, .lastModified, .cacheControl, .eTag, .contentType, .vary]
    var stored = HTTPFields()
    var incoming = HTTPFields()
    stored[.contentType] = "application/json"
    for (index, line) in input.restText.split(separator: "\n").enumerated() {
        let value = String(line)
        guard HTTPField.isValidValue(value) else { continue }
        let field = HTTPField(name: names[index % names.count], value: value)
        if index / names.count % 2 == 0 { stored.append(field) } else { incoming.append(field) }
    }
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let response = CachedResponse(
        response: HTTPResponse(status: .ok, headerFields: stored),
        body: Data(),
        varyValues: [],
        requestTime: now,
        responseTime: now.addingTimeInterval(shift)
    )
    var rules = CacheRules()
    let control = response.control
    for fraction in [0.1, 1e300, -1, .nan] {
        rules.heuristicFraction = fraction
        let lifetime = response.freshnessLifetime(control: control, rules: rules)
        if lifetime < 0 || lifetime > CacheControl.largestDelta { fatalError("lifetime \(lifetime) out of bounds") }
    }
    for offset in [0.0, shift, -shift, 1e18] {
        let age = response.age(at: now.addingTimeInterval(offset))
        if age < 0 || age > CacheControl.largestDelta { fatalError("age \(age) out of bounds") }
    }
    _ = response.validators
    _ = response.served(at: now)
    if response.isConfirmed(by: incoming) {
        let updated = response.updated(
            by: HTTPResponse(status: .notModified, headerFields: incoming),
            requestTime: now,
            responseTime: now,
            credentialFields: .default
        )
        if updated.response.headerFields[values: .contentType] != stored[values: .contentType] {
            fatalError("a 304 replaced Content-Type")
        }
    }
    return 0
}
