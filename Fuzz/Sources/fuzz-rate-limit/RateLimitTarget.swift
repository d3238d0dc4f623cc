import Foundation
import FuzzInput

@testable import Courier

/// Any `RateLimit-Remaining` and `RateLimit-Reset` pair through the parsers, then into the token
/// bucket that acts on them: never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = FuzzInput(start, count)
    let text = input.restText
    let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    let remaining = RateLimitFields.remaining(from: String(parts[0]))
    let reset = parts.count > 1 ? RateLimitFields.resetDelay(from: String(parts[1]), now: Date(timeIntervalSince1970: 1_800_000_000)) : nil
    var bucket = TokenBucket(burst: 5, interval: .milliseconds(100), now: .seconds(1000))
    if let remaining { bucket.adapt(remaining: remaining, reset: reset, now: .seconds(1000)) }
    if let reset { bucket.pause(for: reset, now: .seconds(1000)) }
    _ = bucket.reserve(now: .seconds(1001))
    _ = bucket.isPaused(now: .seconds(1002))
    if let reset { _ = RateLimitMiddleware.pausedError(wait: reset) }
    return 0
}
