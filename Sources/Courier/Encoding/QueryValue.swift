import Foundation

/// A value that can stand in a URL query or a form body: text, a Boolean, a list, a nested
/// dictionary, or nothing.
///
/// You rarely write a `QueryValue` yourself: `Int`, `String`, `Bool`, `Double`, `Decimal`, `UUID`,
/// arrays, dictionaries, optionals and ``JSONValue`` all convert, so parameters read as a literal:
///
/// ```swift
/// let query: QueryParameters = ["page": page, "include_adult": false, "ids": [3, 5, 8]]
/// ```
public enum QueryValue: Sendable, Hashable {
    /// Text, written as given (numbers are already text here, so `Decimal` keeps every digit).
    case text(String)
    /// A Boolean, written per ``QueryStringEncoder/BoolEncoding``.
    case bool(Bool)
    /// A list, written per ``QueryStringEncoder/ArrayEncoding``.
    case list([QueryValue])
    /// Nested values, written as `key[member]=value` with members in sorted order.
    case dictionary([String: QueryValue])
    /// No value: the parameter is left out.
    case absent
}

/// A type whose values can be query or form parameters.
///
/// Conform your own types (for example an enum of sort orders) by returning their wire form:
///
/// ```swift
/// enum SortOrder: String, QueryRepresentable {
///     case popularity = "popularity.desc", rating = "vote_average.desc"
///     var queryValue: QueryValue { .text(rawValue) }
/// }
/// ```
public protocol QueryRepresentable: Sendable {
    /// The value as it should be written into a query or form body.
    var queryValue: QueryValue { get }
}

extension QueryValue: QueryRepresentable {
    /// The value itself.
    public var queryValue: QueryValue { self }
}

extension String: QueryRepresentable {
    /// The string as text.
    public var queryValue: QueryValue { .text(self) }
}

extension Substring: QueryRepresentable {
    /// The substring as text.
    public var queryValue: QueryValue { .text(String(self)) }
}

extension Bool: QueryRepresentable {
    /// The Boolean.
    public var queryValue: QueryValue { .bool(self) }
}

extension Int: QueryRepresentable {
    /// The integer in decimal.
    public var queryValue: QueryValue { .text(String(self)) }
}

extension Int64: QueryRepresentable {
    /// The integer in decimal.
    public var queryValue: QueryValue { .text(String(self)) }
}

extension UInt: QueryRepresentable {
    /// The integer in decimal.
    public var queryValue: QueryValue { .text(String(self)) }
}

extension Double: QueryRepresentable {
    /// The shortest decimal text that reads back as the same `Double` (`0.1`, `1e-07`).
    public var queryValue: QueryValue { .text(description) }
}

extension Decimal: QueryRepresentable {
    /// Every digit of the decimal, with a `.` separator whatever the locale.
    public var queryValue: QueryValue { .text(description) }
}

extension UUID: QueryRepresentable {
    /// The canonical upper-case form.
    public var queryValue: QueryValue { .text(uuidString) }
}

extension Optional: QueryRepresentable where Wrapped: QueryRepresentable {
    /// The wrapped value, or ``QueryValue/absent`` for `nil`.
    public var queryValue: QueryValue { self?.queryValue ?? .absent }
}

extension Array: QueryRepresentable where Element: QueryRepresentable {
    /// The elements as a list.
    public var queryValue: QueryValue { .list(map(\.queryValue)) }
}

extension Dictionary: QueryRepresentable where Key == String, Value: QueryRepresentable {
    /// The members as nested values.
    public var queryValue: QueryValue { .dictionary(mapValues(\.queryValue)) }
}

extension JSONValue: QueryRepresentable {
    /// Strings and numbers as text, Booleans as Booleans, arrays as lists, objects as nested
    /// values, `null` left out.
    public var queryValue: QueryValue {
        switch self {
        case .null: .absent
        case .bool(let value): .bool(value)
        case .int(let value): .text(String(value))
        case .double(let value): .text(value.description)
        case .string(let value): .text(value)
        case .array(let values): .list(values.map(\.queryValue))
        case .object(let members): .dictionary(members.mapValues(\.queryValue))
        }
    }
}
