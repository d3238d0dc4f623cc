import Foundation
import OpenAPIRuntime
import TestSupport
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("A body sent as a stream is given to URLSession again when its source can be read again")
struct BodyStreamSourceTests {
    /// A file of `text` in a temporary directory, removed after `body`.
    func withFile<T>(_ text: String, _ body: (URL) async throws -> T) async throws -> T {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("body.txt")
            try Data(text.utf8).write(to: url)
            return try await body(url)
        }
    }

    @Test("a file, a form with a file and bytes in memory each give a fresh stream of the whole body, every time")
    func reopenable() async throws {
        try await withFile("from disk, sent twice") { url in
            var form = MultipartFormData()
            form.append("kept", named: "note")
            form.appendFile(at: url, named: "attachment", contentType: "text/plain")
            let payloads = [try RequestPayload.file(url), try RequestPayload.multipart(form, boundary: "b0undary"), RequestPayload.bytes(Data("in memory".utf8))]
            for payload in payloads {
                let source = BodyStreamSource(payload)
                #expect(source.canReopen)
                let expected = try await Data(collecting: payload.body, upTo: .max)
                let first = try #require(source.makeStream())
                #expect(contents(of: first, pieceSize: 5) == expected)
                let second = try #require(source.makeStream())
                #expect(second !== first)
                #expect(contents(of: second, pieceSize: 5) == expected)
            }
        }
    }

    @Test("a stream that can be read only once is not given again, so the task fails instead of sending part of it")
    func oneShot() {
        let once = HTTPBody(AsyncStream<ArraySlice<UInt8>> { $0.finish() }, length: .unknown, iterationBehavior: .single)
        let source = BodyStreamSource(RequestPayload.stream(once))
        #expect(!source.canReopen)
        #expect(source.makeStream() == nil)
    }

    @Test("the failure reported is the current stream's: a file that shrank fails the stream given again")
    func failureOfCurrentStream() async throws {
        try await withFile("twenty-one bytes long") { url in
            let source = BodyStreamSource(try RequestPayload.file(url))
            #expect(contents(of: try #require(source.makeStream())) == Data("twenty-one bytes long".utf8))
            #expect(source.failure == nil)
            try Data("short".utf8).write(to: url)
            #expect(contents(of: try #require(source.makeStream())) == nil)
            #expect(source.failure?.kind == .fileAccessFailed)
        }
    }

    @Test("Courier's delegate answers URLSession's request for a new body stream for the task's body, and nil once it is forgotten")
    func delegateAnswers() async throws {
        try await withFile("the body again") { url in
            let session = URLSession(configuration: .ephemeral)
            defer { session.invalidateAndCancel() }
            let task = session.dataTask(with: URLRequest(url: try #require(URL(string: "http://127.0.0.1:9/upload"))))
            let other = session.dataTask(with: URLRequest(url: try #require(URL(string: "http://127.0.0.1:9/other"))))
            let delegate = SessionDelegate()
            delegate.register(BodyStreamSource(try RequestPayload.file(url)), for: task)
            let given = LockedBox<[Data?]>([])
            // Through the protocol, as URLSession calls it (an optional requirement on Apple platforms).
            let asked: any URLSessionTaskDelegate = delegate
            func ask(for task: URLSessionTask) {
                let answer: @Sendable (InputStream?) -> Void = { stream in given.append(stream.flatMap { contents(of: $0) }) }
                #if canImport(FoundationNetworking)
                asked.urlSession(session, task: task, needNewBodyStream: answer)
                #else
                asked.urlSession?(session, task: task, needNewBodyStream: answer)
                #endif
            }
            ask(for: task)
            ask(for: other)
            delegate.unregisterBody(of: task)
            ask(for: task)
            #expect(given.all == [Data("the body again".utf8), nil, nil])
        }
    }
}
