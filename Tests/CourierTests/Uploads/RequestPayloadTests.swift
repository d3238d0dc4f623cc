@testable import Courier
import Foundation
import OpenAPIRuntime
import TestSupport
import Testing

/// A request body is one value from the endpoint to the transport: its kinds, its length, whether
/// it can be sent again, and how it travels past middleware.
@Suite("A request payload is one value with its length and whether it can be sent again")
struct RequestPayloadTests {
    /// Every byte a payload's body yields, read whole.
    func collected(_ payload: RequestPayload) async throws -> Data {
        try await Data(collecting: payload.body, upTo: .max)
    }

    @Test("a form mixing files and fields has the length of its bytes, and reads the same twice")
    func formLengthAndReplay() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("clip.bin")
            try Data(repeating: 7, count: 700_000).write(to: file)
            var form = MultipartFormData()
            form.append("caption", named: "caption")
            form.appendFile(at: file, named: "clip")
            form.append(Data([1, 2]), named: "thumb", filename: "t.bin")
            let payload = try RequestPayload.multipart(form, boundary: "b0undary")
            let first = try await collected(payload)
            #expect(Int64(first.count) == payload.length)
            #expect(try await collected(payload) == first, "each reading starts from the first byte")
            #expect(payload.canBeSentAgain)
            #expect(payload.bytes == nil, "a form with a file is never assembled in memory")
            #expect(String(decoding: first.prefix(80), as: UTF8.self).hasPrefix("--b0undary\r\nContent-Disposition: form-data; name=\"caption\""))
            #expect(first.suffix(14) == Data("--b0undary--\r\n".utf8))
        }
    }

    @Test("a form held in memory is its bytes; a stream can be sent again only if it can be read again")
    func kinds() async throws {
        var form = MultipartFormData()
        form.append("Ada", named: "name")
        let inMemory = try RequestPayload.multipart(form, boundary: "x")
        #expect(inMemory.bytes == Data("--x\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nAda\r\n--x--\r\n".utf8))
        let once = RequestPayload.stream(HTTPBody(AsyncStream<ArraySlice<UInt8>> { $0.finish() }, length: .unknown, iterationBehavior: .single))
        #expect(!once.canBeSentAgain)
        #expect(once.length == nil)
        #expect(RequestPayload.bytes(Data([1])).canBeSentAgain)
    }

    @Test("past middleware, the same body keeps the payload; a body of a middleware's own replaces it")
    func passedOn() throws {
        let payload = RequestPayload.bytes(Data("a".utf8))
        #expect(RequestPayload.passedOn(payload, as: payload.body) == payload)
        let replacement = HTTPBody(Data("b".utf8))
        let replaced = RequestPayload.passedOn(payload, as: replacement)
        #expect(replaced?.body === replacement)
        if case .stream = replaced?.source {} else { Issue.record("a replaced body travels as a stream of it") }
        #expect(RequestPayload.passedOn(payload, as: nil) == nil)
    }

    @Test("a file that is not there, or not a file, fails when the request is built")
    func unreadableFile() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("courier-missing-\(UUID().uuidString)")
        #expect(throws: CourierError.self) { try RequestPayload.file(missing) }
        let error = #expect(throws: CourierError.self) { try RequestPayload.file(FileManager.default.temporaryDirectory) }
        #expect(error?.kind == .fileAccessFailed)
    }

    @Test("URLSession's body stream hands out the same bytes in pieces of any size, and reports a file that grew")
    func inputStream() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("grow.bin")
            try Data(repeating: 3, count: 10_000).write(to: file)
            var form = MultipartFormData()
            form.appendFile(at: file, named: "f")
            let payload = try RequestPayload.multipart(form, boundary: "q")
            let segments = try #require(payload.segments)
            #expect(try readAll(SegmentInputStream(segments), pieceSize: 7) == (try await collected(payload)))

            let handle = try FileHandle(forWritingTo: file)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data([9]))
            try handle.close()
            let stream = SegmentInputStream(segments)
            #expect(throws: CourierError.self) { try readAll(stream, pieceSize: 4096) }
            #expect(stream.failure?.kind == .fileAccessFailed)
            #expect((stream.streamError as? CourierError)?.kind == .fileAccessFailed)
        }
    }

    /// Reads `stream` to its end, `pieceSize` bytes at a time.
    func readAll(_ stream: SegmentInputStream, pieceSize: Int) throws -> Data {
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: pieceSize)
        while true {
            let count = stream.read(&buffer, maxLength: pieceSize)
            if count < 0 { throw stream.failure ?? CourierError(.fileAccessFailed) }
            if count == 0 { return data }
            data.append(contentsOf: buffer[..<count])
        }
    }
}
