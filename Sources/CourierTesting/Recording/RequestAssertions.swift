import Courier

#if canImport(Testing)
import Testing
#endif

#if canImport(XCTest)
import XCTest
#endif

extension RecordedRequest {
    /// What differs from `expected`, as lines a test failure can show; credentials hidden.
    /// - Parameter expected: What the request should be.
    /// - Returns: `nil` when the request matches, otherwise the differences and the request.
    public func difference(from expected: RequestMatcher) -> String? {
        let lines = expected.differences(from: self, redaction: .standard)
        guard !lines.isEmpty else { return nil }
        return (["The request differs from \(expected):"] + lines.map { "  " + $0 } + ["The request was:", description]).joined(separator: "\n")
    }
}

#if canImport(Testing)
/// Fails a Swift Testing test, with a readable difference, unless `request` matches `expected`.
///
/// ```swift
/// expectRequest(stub.requests.last, matches: .post("authenticate").jsonBody(["email": "a@example.com", "password": "x"]))
/// ```
/// - Parameters:
///   - request: A recorded request; `nil` (no such request) fails.
///   - expected: What it should be.
///   - sourceLocation: Where the failure is reported.
public func expectRequest(_ request: RecordedRequest?, matches expected: RequestMatcher, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let request else {
        Issue.record("No request was recorded; expected \(expected).", sourceLocation: sourceLocation)
        return
    }
    if let difference = request.difference(from: expected) {
        Issue.record(Comment(rawValue: difference), sourceLocation: sourceLocation)
    }
}
#endif

#if canImport(XCTest)
/// Fails an XCTest test, with a readable difference, unless `request` matches `expected`.
/// - Parameters:
///   - request: A recorded request; `nil` (no such request) fails.
///   - expected: What it should be.
///   - file: Where the failure is reported.
///   - line: Where the failure is reported.
public func XCTAssertRequest(_ request: RecordedRequest?, matches expected: RequestMatcher, file: StaticString = #filePath, line: UInt = #line) {
    guard let request else {
        XCTFail("No request was recorded; expected \(expected).", file: file, line: line)
        return
    }
    if let difference = request.difference(from: expected) {
        XCTFail(difference, file: file, line: line)
    }
}
#endif
