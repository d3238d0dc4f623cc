import Foundation

/// Reads the rate-limit fields a server sends (`RateLimit-Remaining`/`RateLimit-Reset` of the IETF
/// draft, and their older `X-RateLimit-` spellings). Digits only; any number of them is read
/// without overflow.
enum RateLimitFields {
    /// The requests left in the server's window, or `nil` when `value` is not a non-negative
    /// integer. A count past `Int` is `Int.max`.
    static func remaining(from value: String) -> Int? {
        let text = value.trimmingCharacters(in: .whitespaces)
        guard ServerDelay.isDigits(text[...]) else { return nil }
        return Int(text) ?? .max
    }

    /// The time until the server's window resets, or `nil` when `value` is not a non-negative
    /// integer.
    ///
    /// `RateLimit-Reset` is seconds until the reset; a value over 10⁹ is a Unix time (the older
    /// `X-RateLimit-Reset` convention). Either way the wait is bounded by ``ServerDelay/longest``,
    /// so `99999999999999999999` is a very long wait, never an overflow.
    static func resetDelay(from value: String, now: Date) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        // Digits always read as a `Double`: past its range as infinity, which the bound then takes.
        guard ServerDelay.isDigits(text[...]), let number = Double(text) else { return nil }
        if number > 1_000_000_000 { return ServerDelay.fromSeconds(number - now.timeIntervalSince1970) }
        return .seconds(Int64(number))
    }
}
