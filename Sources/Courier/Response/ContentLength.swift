import Foundation
import HTTPTypes

/// Reads `Content-Length` (RFC 9110 §8.6) as a number the client can trust in arithmetic.
package enum ContentLength {
    /// The length `fields` declare, or `nil` when they declare none or one that is not a length.
    ///
    /// Only digits are a length (no sign, no space inside); a field repeated with the same value
    /// (`42, 42`) is that value, as RFC 9110 allows, and different values are no length at all. A
    /// length past `Int64` is `Int64.max`: larger than any limit, never an overflow.
    package static func value(in fields: HTTPFields) -> Int64? {
        fields[.contentLength].flatMap(value(of:))
    }

    /// The length a `Content-Length` field value declares, as ``value(in:)`` reads it.
    package static func value(of text: String) -> Int64? {
        var length: Int64?
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let digits = part.trimmingCharacters(in: .whitespaces)
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return nil }
            // Digits only, so the one way `Int64` can refuse them is a value past its range.
            let value = Int64(digits) ?? .max
            guard length == nil || length == value else { return nil }
            length = value
        }
        return length
    }
}
