@testable import Courier
import HTTPTypes
import Testing

/// `HTTPFields.value(of:)` reads a field as the subscript does, in one pass.
@Suite("A field's value read in one pass equals the subscript's")
struct HTTPFieldsLookupTests {
    static let fieldLists: [[HTTPField]] = [
        [],
        [HTTPField(name: .contentType, value: "application/json")],
        [HTTPField(name: .contentLength, value: "42"), HTTPField(name: .contentLength, value: "42")],
        [HTTPField(name: .cookie, value: "a=1"), HTTPField(name: .accept, value: "*/*"), HTTPField(name: .cookie, value: "b=2")],
        [HTTPField(name: .contentEncoding, value: "gzip"), HTTPField(name: .contentEncoding, value: ""), HTTPField(name: .date, value: "x")],
    ]

    @Test("present, repeated, cookie and absent fields", arguments: fieldLists)
    func sameAsSubscript(fields list: [HTTPField]) {
        let fields = HTTPFields(list)
        for name in [HTTPField.Name.contentType, .contentLength, .cookie, .contentEncoding, .accept, .location] {
            #expect(fields.value(of: name) == fields[name], "\(name)")
        }
    }
}
