import Foundation

/// The types ``TapeDecoder`` reads straight from the tape instead of through their
/// `init(from:)`, recognised by identity.
///
/// `[String].self` and the other arrays are spelled through the compiler's cached metadata
/// accessors, so telling a type apart is a few comparisons.
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

    /// The leaf `type` is, or `nil` for any other type: a few comparisons of metadata addresses
    /// (no table behind a `swift_once`, as this runs for every value read).
    @inline(__always)
    init?(_ type: Any.Type) {
        let identity = ObjectIdentifier(type)
        switch identity {
        case ObjectIdentifier(String.self): self = .plain(.string)
        case ObjectIdentifier(Int.self): self = .plain(.int)
        case ObjectIdentifier(Double.self): self = .plain(.double)
        case ObjectIdentifier(Bool.self): self = .plain(.bool)
        case ObjectIdentifier([String].self): self = .plain(.strings)
        case ObjectIdentifier([Int].self): self = .plain(.ints)
        case ObjectIdentifier([Double].self): self = .plain(.doubles)
        case ObjectIdentifier(Date.self): self = .date
        case ObjectIdentifier(Data.self): self = .data
        case ObjectIdentifier(URL.self): self = .url
        case ObjectIdentifier(Decimal.self): self = .decimal
        default: return nil
        }
    }
}
