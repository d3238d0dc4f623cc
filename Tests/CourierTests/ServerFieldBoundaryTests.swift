import CourierTesting
import Foundation
import HTTPTypes
import TestSupport
import Testing

@testable import Courier

/// The response fields Courier reads numbers from, at and past every limit: each is read,
/// bounded or ignored, and none traps.
@Suite("Reading numbers from response fields at their limits")
struct ServerFieldBoundaryTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let zeros = String(repeating: "0", count: 5000)
    static let pastInt64 = ["9223372036854775808", "18446744073709551616", "1" + String(repeating: "0", count: 30), String(repeating: "9", count: 400)]

    @Test("Retry-After: Int64.max and past it is the longest wait, which no retry policy waits for")
    func retryAfterLimits() {
        for value in ["9223372036854775807", "1000000001"] + Self.pastInt64 {
            #expect(RetryAfter.delay(from: value, now: Self.now) == ServerDelay.longest, "\(value.prefix(40))")
        }
        #expect(RetryAfter.delay(from: "1000000000", now: Self.now) == .seconds(1_000_000_000))
        #expect(RetryAfter.delay(from: Self.zeros + "7", now: Self.now) == .seconds(7))
        #expect(RetryAfter.delay(from: Self.zeros, now: Self.now) == .zero)
        #expect(RetryAfter.delay(from: "Fri, 31 Dec 9999 23:59:59 GMT", now: Self.now) == ServerDelay.longest)

        var response = HTTPResponse(status: .serviceUnavailable)
        response.headerFields[.retryAfter] = "1" + String(repeating: "0", count: 30)
        let request = HTTPRequest(method: .get, scheme: "https", authority: "example.com", path: "/")
        #expect(RetryPolicy.exponential().decision(after: .response(response), of: request, attempt: 1, random: 0.5, now: Self.now) == .deliver)
    }

    @Test("RateLimit-Reset: 10^30, 99999999999999999999 and Int64.max are the longest wait, as seconds or a Unix time")
    func rateLimitResetLimits() {
        for value in ["99999999999999999999", "9223372036854775807"] + Self.pastInt64 {
            #expect(RateLimitFields.resetDelay(from: value, now: Self.now) == ServerDelay.longest, "\(value.prefix(40))")
        }
        #expect(RateLimitFields.resetDelay(from: Self.zeros + "30", now: Self.now) == .seconds(30))
        #expect(RateLimitFields.resetDelay(from: "1800000042", now: Self.now) == .seconds(42))
        #expect(RateLimitFields.resetDelay(from: "1000000001", now: Self.now) == .zero, "a Unix time in the past")
        for garbage in ["", "-1", "+5", "1.5", "1e3", "5 5", "٣"] {
            #expect(RateLimitFields.resetDelay(from: garbage, now: Self.now) == nil, "\(garbage)")
        }
    }

    @Test("RateLimit-Remaining: any count of digits; past Int it is Int.max; a sign is no count")
    func rateLimitRemainingLimits() {
        #expect(RateLimitFields.remaining(from: "9223372036854775807") == .max)
        for value in Self.pastInt64 { #expect(RateLimitFields.remaining(from: value) == .max) }
        #expect(RateLimitFields.remaining(from: Self.zeros + "3") == 3)
        #expect(RateLimitFields.remaining(from: " 0 ") == 0)
        for garbage in ["-1", "-9223372036854775809", "+1", "", "x"] { #expect(RateLimitFields.remaining(from: garbage) == nil) }
    }

    @Test("a server's pause past the request's timeout fails the next request at once, as rate limited")
    func longPauseFailsAtOnce() async throws {
        let transport = StubTransport.scripted([
            .status(429, headers: [.rateLimitRemaining: "0", .rateLimitReset: "99999999999999999999"])
        ])
        let client = Client(baseURL: "https://api.example.com", transport: transport) {
            $0.middleware = [RateLimitMiddleware(.perHost(5, per: .seconds(1)))]
            $0.timeout = .seconds(30)
        }
        let first = await capture { try await client.send(Request<Data>(.get, "a")) }
        #expect(first.error?.kind == .rateLimited)
        let second = await capture { try await client.send(Request<Data>(.get, "b")) }
        #expect(second.error?.kind == .rateLimited)
        #expect(second.error?.failureReason?.contains("longer than the request's timeout") == true)
        #expect(transport.requests.count == 1, "the paused request never reached the transport")
    }

    @Test("Content-Length: ASCII digits only, a repeated equal value, and past Int64 the largest length")
    func contentLengthLimits() {
        #expect(ContentLength.value(of: "9223372036854775807") == .max)
        for value in Self.pastInt64 { #expect(ContentLength.value(of: value) == .max) }
        #expect(ContentLength.value(of: Self.zeros + "42") == 42)
        #expect(ContentLength.value(of: "42, 42") == 42)
        #expect(ContentLength.value(of: " 0 ") == 0)
        #expect(ContentLength.value(of: "\t42 ,42\t") == 42, "spaces and tabs around a value are HTTP's optional whitespace")
        let garbage = ["-1", "-9223372036854775808", "+5", "42, 43", "4 2", "", ",", "42,", "0x10", "1e3", "\u{A0}42", "\u{0664}\u{0662}"]
        for garbage in garbage {
            #expect(ContentLength.value(of: garbage) == nil, "\(garbage)")
        }
    }

    @Test("Set-Cookie Max-Age: past Int64 it is the longest life; a negative one of any size expires it")
    func maxAgeLimits() throws {
        func expiry(_ maxAge: String) -> Date? {
            SetCookieParser.cookie(from: "a=b; Max-Age=\(maxAge)", host: "example.com", path: "/", secure: true, now: Self.now)?.expires
        }
        let longest = Self.now.addingTimeInterval(400 * 24 * 3600)
        for value in ["9223372036854775807"] + Self.pastInt64 { #expect(expiry(value) == longest) }
        for value in ["-9223372036854775808", "-9223372036854775809", "-" + String(repeating: "9", count: 400), "0", "-0"] {
            #expect(expiry(value) == .distantPast, "\(value.prefix(40))")
        }
        #expect(expiry(Self.zeros + "60") == Self.now.addingTimeInterval(60))
        // Anything but an optional minus and digits is ignored (RFC 6265 §5.2.2): no expiry at all.
        for garbage in ["1x", "+60", "6 0", "-", "", "1e3", "x"] {
            #expect(expiry(garbage) == nil, "\(garbage)")
        }
    }

    @Test("Set-Cookie Expires: far years and long texts are read or ignored")
    func expiresLimits() {
        for value in ["Fri, 31 Dec 9999 23:59:59 GMT", "Fri, 31 Dec 99999999999999999999 23:59:59 GMT", String(repeating: "Fri, ", count: 1000)] {
            _ = SetCookieParser.cookie(from: "a=b; Expires=\(value)", host: "example.com", path: "/", secure: true, now: Self.now)
        }
        #expect(HTTPDate.parse(String(repeating: "1", count: 100)) == nil)
    }

    /// The payload that once stopped the process (20 fractional digits in an ISO 8601 date), through
    /// the client: see `UTF8JSONDecoderBoundaryTests` for the decoder alone.
    @Test("the same payload through client.send: the same date or the same error as JSONDecoder")
    func longFractionThroughTheClient() async throws {
        struct Event: Decodable, Equatable, Sendable {
            var created_at: Date
        }
        let payload = #"{"created_at": "2020-01-01T00:00:00.12345678901234567890Z"}"#
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .iso8601
        let expected = Result { try foundation.decode(Event.self, from: Data(payload.utf8)) }
        let client = Client(baseURL: "https://api.example.com", transport: StubTransport.scripted([.status(200, body: payload)])) {
            $0.decoder.dateDecodingStrategy = .iso8601
        }
        let result = await capture { try await client.send(Request<Event>(.get, "events/1")) }
        switch (result, expected) {
        case (.success(let ours), .success(let theirs)): #expect(ours == theirs)
        case (.failure(let error), .failure): #expect(error.kind == .decodingFailed)
        default: Issue.record("JSONDecoder gives \(expected), the client \(result)")
        }
    }
}
