/// A coding key made at run time: a member name, or an array position (`Index 3`).
///
/// A position's text is only made when asked for (in an error message, say): every array element
/// gets one of these on the coding path.
struct JSONKey: CodingKey {
    private let name: String?
    let intValue: Int?

    init(_ name: String) {
        self.name = name
        intValue = nil
    }

    init(index: Int) {
        name = nil
        intValue = index
    }

    init?(stringValue: String) {
        self.init(stringValue)
    }

    init?(intValue: Int) {
        self.init(index: intValue)
    }

    var stringValue: String {
        name ?? "Index \(intValue ?? 0)"
    }

    /// The key `super` containers use for `superDecoder()`.
    static let `super` = JSONKey("super")
}
