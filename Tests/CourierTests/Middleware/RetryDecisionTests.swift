@testable import Courier
import Foundation
import Testing

@Suite("Retry decisions: which failures are retried, and after how long")
struct RetryDecisionTests {
    let policy = RetryPolicy.exponential(maxAttempts: 3)
    let get = HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/items")
    let post = HTTPRequest(method: .post, scheme: "https", authority: "api.example.com", path: "/items")

    func response(_ code: Int, retryAfter: String? = nil) -> RetryPolicy.Outcome {
        var fields = HTTPFields()
        fields[.retryAfter] = retryAfter
        return .response(HTTPResponse(status: .init(code: code), headerFields: fields))
    }

    @Test("Retry-After in seconds, as an HTTP date in all three forms, and garbage")
    func retryAfterParsing() throws {
        let now = try #require(HTTPDate.parse("Sun, 06 Nov 1994 08:49:30 GMT"))
        #expect(RetryAfter.delay(from: "120", now: now) == .seconds(120))
        #expect(RetryAfter.delay(from: " 0 ", now: now) == .zero)
        #expect(RetryAfter.delay(from: "Sun, 06 Nov 1994 08:49:37 GMT", now: now) == .seconds(7))
        #expect(RetryAfter.delay(from: "Sunday, 06-Nov-94 08:49:37 GMT", now: now) == .seconds(7))
        #expect(RetryAfter.delay(from: "Sun Nov  6 08:49:37 1994", now: now) == .seconds(7))
        #expect(RetryAfter.delay(from: "Sun, 06 Nov 1994 08:00:00 GMT", now: now) == .zero, "a past date means now")
        for garbage in ["", "soon", "-5", "1.5", "+5", "5 5", "Sun, 32 Nov 1994 08:49:37 GMT"] {
            #expect(RetryAfter.delay(from: garbage, now: now) == nil, "\(garbage)")
        }
        #expect(RetryAfter.delay(from: nil, now: now) == nil)
    }

    @Test("backoff ceilings double from the base up to the maximum; full jitter scales them")
    func backoffSchedule() {
        let backoff = Backoff(base: .milliseconds(100), maximum: .seconds(1))
        #expect(
            (1...6).map { backoff.ceiling(forRetry: $0) } == [
                .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1), .seconds(1),
            ])
        #expect(backoff.delay(forRetry: 3, random: 0) == .zero)
        #expect(backoff.delay(forRetry: 3, random: 0.5) == .milliseconds(200))
        #expect(backoff.delay(forRetry: 3, random: 7) == .milliseconds(400), "random is clamped to 0...1")
        #expect(backoff.ceiling(forRetry: 10_000) == .seconds(1), "no overflow for huge retry counts")
    }

    @Test("idempotent methods are retried after 408, 429, 5xx gateway errors and connection failures")
    func retriedOutcomes() {
        for code in [408, 429, 500, 502, 503, 504] {
            #expect(policy.decision(after: response(code), of: get, attempt: 1, random: 1) == .retry(after: .milliseconds(200)))
        }
        for kind in [CourierError.Kind.notConnected, .timedOut, .transportFailed] {
            #expect(policy.decision(after: .failure(kind), of: get, attempt: 2, random: 1) == .retry(after: .milliseconds(400)))
        }
        for method in [HTTPRequest.Method.head, .put, .delete, .options] {
            var request = get
            request.method = method
            #expect(policy.decision(after: response(503), of: request, attempt: 1, random: 1) != .deliver)
        }
    }

    @Test("success, client errors, cancellation and decoding failures are delivered, never retried")
    func deliveredOutcomes() {
        for code in [200, 201, 204, 301, 400, 401, 403, 404, 409, 422, 501] {
            #expect(policy.decision(after: response(code), of: get, attempt: 1, random: 1) == .deliver, "\(code)")
        }
        for kind in [CourierError.Kind.cancelled, .decodingFailed, .invalidRequest, .responseTooLarge] {
            #expect(policy.decision(after: .failure(kind), of: get, attempt: 1, random: 1) == .deliver)
        }
    }

    @Test("a POST is retried only when it carries an Idempotency-Key")
    func postNeedsIdempotencyKey() {
        #expect(policy.decision(after: response(503), of: post, attempt: 1, random: 1) == .deliver)
        #expect(policy.decision(after: .failure(.timedOut), of: post, attempt: 1, random: 1) == .deliver)
        var keyed = post
        keyed.headerFields[.idempotencyKey] = "order-17"
        #expect(policy.decision(after: response(503), of: keyed, attempt: 1, random: 1) == .retry(after: .milliseconds(200)))
    }

    @Test("Retry-After sets the wait, unless it is longer than the policy accepts")
    func retryAfterWins() {
        #expect(policy.decision(after: response(429, retryAfter: "1"), of: get, attempt: 1, random: 0) == .retry(after: .seconds(1)))
        #expect(policy.decision(after: response(503, retryAfter: "3600"), of: get, attempt: 1, random: 0) == .deliver)
        #expect(policy.decision(after: response(503, retryAfter: "never"), of: get, attempt: 1, random: 1) == .retry(after: .milliseconds(200)))
    }

    @Test("the last attempt is delivered whatever happened")
    func maxAttempts() {
        #expect(policy.decision(after: response(503), of: get, attempt: 3, random: 1) == .deliver)
        #expect(RetryPolicy.never.decision(after: response(503), of: get, attempt: 1, random: 1) == .deliver)
    }

    @Test("the retry budget stops retries after a run of failures and earns them back with successes")
    func budget() {
        var budget = RetryBudget(maximumTokens: 10, tokenRatio: 0.5)
        #expect((1...4).map { _ in budget.recordFailure() } == [true, true, true, true])
        #expect(budget.recordFailure() == false, "5 tokens left: not more than half")
        #expect(budget.recordFailure() == false)
        for _ in 0..<6 { budget.recordSuccess() }
        #expect(budget.tokens == 7)
        #expect(budget.recordFailure() == true)
        for _ in 0..<100 { budget.recordSuccess() }
        #expect(budget.tokens == 10, "never above the maximum")
    }
}
