@testable import Courier
import Foundation
import Testing

@Suite("Token bucket: bursts, pacing in arrival order, and the server's pauses")
struct TokenBucketTests {
    @Test("a burst goes at once, then one request per interval, in the order they asked")
    func burstThenPace() {
        var bucket = TokenBucket(burst: 5, interval: .milliseconds(200))
        let waits = (0..<8).map { _ in bucket.reserve(now: .zero) }
        #expect(waits == [.zero, .zero, .zero, .zero, .zero, .milliseconds(200), .milliseconds(400), .milliseconds(600)])
    }

    @Test("tokens come back over time, never more than the burst")
    func refill() {
        var bucket = TokenBucket(burst: 2, interval: .milliseconds(100))
        _ = bucket.reserve(now: .zero)
        _ = bucket.reserve(now: .zero)
        #expect(bucket.reserve(now: .milliseconds(100)) == .zero)
        #expect(bucket.reserve(now: .milliseconds(100)) == .milliseconds(100))
        #expect(bucket.reserve(now: .seconds(10)) == .zero)
        #expect(bucket.reserve(now: .seconds(10)) == .zero)
        #expect(bucket.reserve(now: .seconds(10)) == .milliseconds(100), "idle time refilled only the burst")
    }

    @Test("Retry-After pauses the bucket: the next request waits for the pause to end")
    func pause() {
        var bucket = TokenBucket(burst: 5, interval: .milliseconds(200))
        bucket.pause(for: .seconds(1), now: .zero)
        #expect(bucket.isPaused(now: .milliseconds(500)))
        #expect(bucket.reserve(now: .milliseconds(500)) == .milliseconds(500))
        #expect(bucket.reserve(now: .milliseconds(500)) == .milliseconds(700))
        #expect(!bucket.isPaused(now: .seconds(2)))
    }

    @Test("RateLimit-Remaining caps the tokens; nothing remaining pauses until the reset")
    func adapt() {
        var bucket = TokenBucket(burst: 10, interval: .milliseconds(100))
        bucket.adapt(remaining: 1, reset: .seconds(5), now: .zero)
        #expect(bucket.reserve(now: .zero) == .zero)
        #expect(bucket.reserve(now: .zero) == .milliseconds(100))
        var exhausted = TokenBucket(burst: 10, interval: .milliseconds(100))
        exhausted.adapt(remaining: 0, reset: .seconds(2), now: .zero)
        #expect(exhausted.reserve(now: .zero) == .seconds(2))
    }

    @Test("reset values: seconds, or a Unix time in the older convention")
    func resetValues() {
        let now = Date(timeIntervalSince1970: 2_000_000_000)
        #expect(RateLimitFields.resetDelay(from: "30", now: now) == .seconds(30))
        #expect(RateLimitFields.resetDelay(from: "2000000010", now: now) == .seconds(10))
        #expect(RateLimitFields.resetDelay(from: "-1", now: now) == nil)
        #expect(RateLimitFields.resetDelay(from: "later", now: now) == nil)
    }
}
