import Courier
import Foundation
import Testing

@Suite("Query and form encoding")
struct QueryStringEncoderTests {
    let encoder = QueryStringEncoder()

    @Test("reserved characters, spaces and percent signs are escaped so they survive as data")
    func reservedCharacters() {
        let query: QueryParameters = ["q": "a b&c=d+e/f?g#h%i"]
        #expect(encoder.encode(query) == "q=a%20b%26c%3Dd%2Be%2Ff%3Fg%23h%25i")
    }

    @Test("names are escaped like values")
    func names() {
        #expect(encoder.encode(["a b&c": "1"]) == "a%20b%26c=1")
    }

    @Test("unicode and emoji are written as percent-escaped UTF-8")
    func unicode() {
        #expect(encoder.encode(["city": "Zürich", "mood": "😀"]) == "city=Z%C3%BCrich&mood=%F0%9F%98%80")
    }

    @Test("unreserved characters stand as they are")
    func unreserved() {
        #expect(encoder.encode(["k": "AZaz09-._~"]) == "k=AZaz09-._~")
    }

    @Test("an empty value keeps its name; nil values are left out")
    func emptyAndNil() {
        let missing: String? = nil
        #expect(encoder.encode(["empty": "", "missing": missing, "last": 1]) == "empty=&last=1")
    }

    @Test("parameters keep the order they were written in")
    func stableOrder() {
        #expect(encoder.encode(["z": 1, "a": 2, "m": 3]) == "z=1&a=2&m=3")
    }

    @Test("setting an existing name replaces its value in place")
    func replaceInPlace() {
        var query: QueryParameters = ["a": 1, "b": 2]
        query["a"] = "x"
        query["b"] = nil
        query["c"] = true
        #expect(encoder.encode(query) == "a=x&c=true")
    }

    @Test(
        "arrays in each style",
        arguments: [
            (QueryStringEncoder.ArrayEncoding.repeatedName, "ids=1&ids=2"),
            (.brackets, "ids%5B%5D=1&ids%5B%5D=2"),
            (.indexed, "ids%5B0%5D=1&ids%5B1%5D=2"),
            (.commaSeparated, "ids=1,2"),
        ])
    func arrays(style: QueryStringEncoder.ArrayEncoding, expected: String) {
        #expect(QueryStringEncoder(arrayEncoding: style).encode(["ids": [1, 2]]) == expected)
    }

    @Test("comma-separated lists escape commas inside elements")
    func commaInsideElement() {
        #expect(QueryStringEncoder(arrayEncoding: .commaSeparated).encode(["tags": ["a,b", "c"]]) == "tags=a%2Cb,c")
    }

    @Test("nested dictionaries are written as name[key] in sorted key order")
    func nested() {
        let filter: [String: any QueryRepresentable] = [:]
        _ = filter
        let query: QueryParameters = ["filter": ["status": "active", "age": ["min": 18]] as JSONValue]
        #expect(encoder.encode(query) == "filter%5Bage%5D%5Bmin%5D=18&filter%5Bstatus%5D=active")
    }

    @Test("Booleans as literals or numbers")
    func booleans() {
        #expect(encoder.encode(["adult": false, "video": true]) == "adult=false&video=true")
        #expect(QueryStringEncoder(boolEncoding: .numeric).encode(["adult": false, "video": true]) == "adult=0&video=1")
    }

    @Test("Decimal keeps every digit; Double writes its shortest exact form")
    func numbers() {
        let price = Decimal(string: "12345678901234567.89") ?? 0
        #expect(encoder.encode(["price": price, "ratio": 0.1, "tiny": 1e-7, "int": -42]) == "price=12345678901234567.89&ratio=0.1&tiny=1e-07&int=-42")
    }

    @Test("a form body writes spaces as plus and escapes a literal plus")
    func formBody() {
        #expect(encoder.encode(["note": "a b+c"], for: .formBody) == "note=a+b%2Bc")
    }

    @Test("an empty parameter list encodes to nothing")
    func empty() {
        #expect(encoder.encode([:]).isEmpty)
    }
}
