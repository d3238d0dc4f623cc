import Foundation

/// The types ``TapeDecoder`` reads straight from the tape instead of through their
/// `init(from:)`, recognised by identity.
///
/// `[String].self` and the other generic types cost a metadata lookup each time they are
/// spelled; their identities are looked up once here, so telling a type apart is a few
/// comparisons.
enum LeafType {
    case string, int, double, bool
    case strings, ints, doubles
    case date, data, url, decimal

    private static let identities: [(ObjectIdentifier, LeafType)] = [
        (ObjectIdentifier(String.self), .string), (ObjectIdentifier(Int.self), .int),
        (ObjectIdentifier(Double.self), .double), (ObjectIdentifier(Bool.self), .bool),
        (ObjectIdentifier([String].self), .strings), (ObjectIdentifier([Int].self), .ints),
        (ObjectIdentifier([Double].self), .doubles), (ObjectIdentifier(Date.self), .date),
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
