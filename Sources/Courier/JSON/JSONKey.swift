/// A coding key made at run time: a member name, or an array position (`Index 3`).
struct JSONKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ name: String) {
        stringValue = name
        intValue = nil
    }

    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    init?(stringValue: String) {
        self.init(stringValue)
    }

    init?(intValue: Int) {
        self.init(index: intValue)
    }

    /// The key `super` containers use for `superDecoder()`.
    static let `super` = JSONKey("super")
}
