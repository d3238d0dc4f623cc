import Courier
import Foundation
import Testing

@Suite("Dynamic JSON values")
struct JSONValueTests {
    @Test("decoding and encoding round-trip every kind of value")
    func roundTrip() throws {
        let text = #"{"a":[1,2.5,"x",true,false,null],"b":{"c":-7},"d":""}"#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(value["a"]?[0] == .int(1))
        #expect(value["a"]?[1] == .double(2.5))
        #expect(value["a"]?[3]?.boolValue == true)
        #expect(value["b"]?["c"]?.intValue == -7)
        let again = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
        #expect(again == value)
    }

    @Test("literals build values; subscripts out of range are nil")
    func literals() {
        let value: JSONValue = ["list": [1, "two", 3.0, nil], "flag": false]
        #expect(value["list"]?[1]?.stringValue == "two")
        #expect(value["list"]?[9] == nil)
        #expect(value["missing"] == nil)
        #expect(value["flag"]?[0] == nil)
        #expect(value.description == #"{"flag":false,"list":[1,"two",3,null]}"#)
    }

    @Test("large integers keep their exact value")
    func largeIntegers() throws {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data("9007199254740993".utf8))
        #expect(value == .int(9_007_199_254_740_993))
    }
}
