import Foundation

/// A wait a server asks for (`Retry-After`, `RateLimit-Reset`), bounded before any arithmetic:
/// a server can send any number, and no number it sends may trap the client.
enum ServerDelay {
    /// The longest wait taken from a server, about 31 years: far past any timeout a caller sets,
    /// and small enough that adding it to any clock reading cannot overflow `Duration` or its
    /// seconds component.
    static let longest: Duration = .seconds(1_000_000_000)

    /// `seconds` as a wait, rounded up to the millisecond: a negative number is no wait, one past
    /// ``longest`` is ``longest``, and NaN is no answer.
    static func fromSeconds(_ seconds: Double) -> Duration? {
        guard !seconds.isNaN else { return nil }
        let bounded = min(max(seconds, 0), 1_000_000_000)
        return .milliseconds(Int64((bounded * 1000).rounded(.up)))
    }

    /// A delay written as decimal digits only (RFC 9110's `delay-seconds`): no sign, no fraction,
    /// no space. Any number of digits is read; one past ``longest`` is ``longest``.
    /// - Returns: The wait, or `nil` when `text` is empty or holds anything but digits.
    static func fromDigits(_ text: Substring) -> Duration? {
        guard isDigits(text) else { return nil }
        guard let seconds = Int64(text), seconds <= 1_000_000_000 else { return longest }
        return .seconds(seconds)
    }

    /// Whether `text` is one or more ASCII decimal digits and nothing else.
    static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 &- UInt8(ascii: "0") < 10 }
    }
}
