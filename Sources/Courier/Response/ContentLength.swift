import HTTPTypes

/// Reads `Content-Length` (RFC 9110 §8.6) as a number the client can trust in arithmetic.
///
/// It is read for every response, so it works on the field's UTF-8 bytes: no Foundation string
/// operations, which on Linux bridge through `NSString`.
package enum ContentLength {
    /// The length `fields` declare, or `nil` when they declare none or one that is not a length.
    ///
    /// Only digits are a length (no sign, no space inside); a field repeated with the same value
    /// (`42, 42`) is that value, as RFC 9110 allows, and different values are no length at all. A
    /// length past `Int64` is `Int64.max`: larger than any limit, never an overflow.
    package static func value(in fields: HTTPFields) -> Int64? {
        fields.value(of: .contentLength).flatMap(value(of:))
    }

    /// The length of the body `response` carries: `nil` when it declares none, or when its status
    /// has no body whatever its `Content-Length` says.
    package static func bodyLength(of response: HTTPResponse) -> Int64? {
        mayHaveBody(status: response.status.code) ? value(in: response.headerFields) : nil
    }

    /// Whether a response with this status can have a body (RFC 9110 §6.4.1): a 1xx, 204 or 304
    /// has none (a 304's `Content-Length` gives the stored representation's length, §8.6).
    package static func mayHaveBody(status code: Int) -> Bool {
        code >= 200 && code != 204 && code != 304
    }

    /// The length a `Content-Length` field value declares, as ``value(in:)`` reads it: each
    /// comma-separated part digits only, with spaces or tabs around them (RFC 9110's `OWS`).
    package static func value(of text: String) -> Int64? {
        var length: Int64?
        // The part being read: its value so far, whether it has digits, and whether it ended.
        var value: Int64 = 0
        var digits = false
        var ended = false
        func endPart() -> Bool {
            guard digits, length == nil || length == value else { return false }
            length = value
            (value, digits, ended) = (0, false, false)
            return true
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard !ended else { return nil }
                digits = true
                // Past `Int64`, the largest length: more digits cannot make it smaller.
                let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowSum) = times.addingReportingOverflow(Int64(byte &- UInt8(ascii: "0")))
                value = overflowTimes || overflowSum ? .max : sum
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                ended = digits
            case UInt8(ascii: ","):
                guard endPart() else { return nil }
            default:
                return nil
            }
        }
        return endPart() ? length : nil
    }
}
