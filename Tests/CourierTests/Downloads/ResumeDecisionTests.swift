import HTTPTypes
import Testing

@testable import Courier

@Suite("A resumed download uses a range only when it fits the bytes saved")
struct ResumeDecisionTests {
    let record = DownloadRecord(url: "http://127.0.0.1/f", validator: .entityTag("\"v1\""), bytesWritten: 500, totalBytes: 1000)

    func partial(_ fields: HTTPFields) -> HTTPResponse {
        HTTPResponse(status: .partialContent, headerFields: fields)
    }

    @Test("a matching 206 is written where its Content-Range starts")
    func matching() {
        let exact = partial([.contentRange: "bytes 500-999/1000", .eTag: "\"v1\"", .contentLength: "500"])
        #expect(ResumeDecision.decide(exact, askedFrom: 500, record: record) == .range(first: 500, end: 1000, total: 1000))
        let earlier = partial([.contentRange: "bytes 400-999/1000", .eTag: "\"v1\""])
        #expect(ResumeDecision.decide(earlier, askedFrom: 500, record: record) == .range(first: 400, end: 1000, total: 1000))
        let shorter = partial([.contentRange: "bytes 500-599/1000"])
        #expect(ResumeDecision.decide(shorter, askedFrom: 500, record: record) == .range(first: 500, end: 600, total: 1000))
    }

    @Test("a 200 starts the file again")
    func whole() {
        let response = HTTPResponse(status: .ok, headerFields: [.contentLength: "1000"])
        #expect(ResumeDecision.decide(response, askedFrom: 500, record: record) == .whole(length: 1000))
    }

    @Test(
        "a 206 that does not fit starts the file again",
        arguments: [
            [HTTPField.Name.contentRange: "bytes 600-999/1000"],
            [.contentRange: "bytes 500-999/1000", .eTag: "\"v2\""],
            [.contentRange: "bytes 500-999/1000", .eTag: "W/\"v1\""],
            [.contentRange: "bytes 500-999/2000"],
            [.contentRange: "bytes 500-999/1000", .contentLength: "400"],
            [.contentRange: "bytes 500-999/1000", .contentEncoding: "gzip"],
            [.contentRange: "500-999/1000"],
            [:],
        ] as [HTTPFields])
    func unusable(fields: HTTPFields) {
        guard case .startAgain = ResumeDecision.decide(partial(fields), askedFrom: 500, record: record) else {
            Issue.record("used \(fields)")
            return
        }
    }

    @Test("a 206 nobody asked for is not used")
    func unasked() {
        let response = partial([.contentRange: "bytes 0-999/1000"])
        guard case .startAgain = ResumeDecision.decide(response, askedFrom: nil, record: nil) else {
            Issue.record("used an unasked 206")
            return
        }
    }

    @Test("the validator is a strong ETag, else Last-Modified, and none for a coded body")
    func validator() {
        let both = HTTPResponse(status: .ok, headerFields: [.eTag: "\"a\"", .lastModified: "Wed, 21 Oct 2026 07:28:00 GMT"])
        #expect(DownloadRecord.validator(of: both) == .entityTag("\"a\""))
        let weak = HTTPResponse(status: .ok, headerFields: [.eTag: "W/\"a\"", .lastModified: "Wed, 21 Oct 2026 07:28:00 GMT"])
        #expect(DownloadRecord.validator(of: weak) == .lastModified("Wed, 21 Oct 2026 07:28:00 GMT"))
        #expect(DownloadRecord.validator(of: HTTPResponse(status: .ok, headerFields: [.eTag: "W/\"a\""])) == nil)
        #expect(DownloadRecord.validator(of: HTTPResponse(status: .ok, headerFields: [.lastModified: "yesterday"])) == nil)
        let coded = HTTPResponse(status: .ok, headerFields: [.eTag: "\"a\"", .contentEncoding: "gzip"])
        #expect(DownloadRecord.validator(of: coded) == nil)
    }
}
