import Foundation

/// The types ``TapeDecoder`` reads straight from the tape instead of through their
/// `init(from:)`, recognised by identity.
///
/// `[String].self` and the other generic types cost a metadata lookup each time they are
/// spelled; their identities are looked up once here, so telling a type apart is a few
/// comparisons.
enum LeafType {
    /// The leaves read from the tape whatever the strategies: a string, a number, a Bool, or an
    /// array of them.
    enum Plain {
        case string, int, double, bool
        case strings, ints, doubles
    }

    /// Read from the tape whatever the strategies.
    case plain(Plain)
    /// Read JSONDecoder's own way: dates and data by their strategies, URLs from strings,
    /// decimals from the number's text.
    case date, data, url, decimal

    private static let identities: [(ObjectIdentifier, LeafType)] = [
        (ObjectIdentifier(String.self), .plain(.string)), (ObjectIdentifier(Int.self), .plain(.int)),
        (ObjectIdentifier(Double.self), .plain(.double)), (ObjectIdentifier(Bool.self), .plain(.bool)),
        (ObjectIdentifier([String].self), .plain(.strings)), (ObjectIdentifier([Int].self), .plain(.ints)),
        (ObjectIdentifier([Double].self), .plain(.doubles)), (ObjectIdentifier(Date.self), .date),
        (ObjectIdentifier(Data.self), .data), (ObjectIdentifier(URL.self), .url),
        (ObjectIdentifier(Decimal.self), .decimal),
    ]

    /// The leaf `type` is, or `nil` for any other type.
    init?(_ type: Any.Type) {
        let identity = ObjectIdentifier(type)
        for (candidate, leaf) in Self.identities where candidate == identity {
            self = leaf
            return
        }
        return nil
    }
}
