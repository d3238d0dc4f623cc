/// A coding key made at run time: a member name, or an array position (`Index 3`).
///
/// A position's text is only made when asked for (in an error message, say): every array element
/// gets one of these on the coding path. Small enough (one `String` and a tag) to sit in an
/// existential's inline buffer, so pushing it allocates nothing.
struct JSONKey: CodingKey {
    private enum Storage {
        case name(String)
        case index(Int)
    }

    private let storage: Storage

    init(_ name: String) {
        storage = .name(name)
    }

    init(index: Int) {
        storage = .index(index)
    }

    init?(stringValue: String) {
        self.init(stringValue)
    }

    init?(intValue: Int) {
        self.init(index: intValue)
    }

    var stringValue: String {
        switch storage {
        case .name(let name): name
        case .index(let index): "Index \(index)"
        }
    }

    var intValue: Int? {
        if case .index(let index) = storage { return index }
        return nil
    }

    /// The key `super` containers use for `superDecoder()`.
    static let `super` = JSONKey("super")
}
