// Compiled with the package trait `OfflineQueue`, as the module under test is.
#if OfflineQueue
import Courier
import CourierOfflineQueue
import CourierTesting
import Foundation
import HTTPTypes
import TestSupport
import Testing

/// Adds a new token to every request, as an authentication middleware would.
struct FreshTokenMiddleware: Middleware {
    let token: String

    var credentialFields: CredentialFields { CredentialFields(headerNames: [.authorization]) }

    func intercept(_ request: HTTPRequest, body: HTTPBody?, context: MiddlewareContext, next: MiddlewareNext) async throws -> MiddlewareResponse {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, context)
    }
}

struct Note: Codable, Sendable, Equatable {
    var id: Int
    var text: String
}

@Suite("The offline queue over the testing kit's stub transport")
struct OfflineQueueStubTests {
    @Test("an entry is stored without credentials or common parameters, and sent with fresh ones and one Idempotency-Key")
    func storedWithoutCredentials() async throws {
        let folder = try QueueFolder()
        defer { folder.remove() }
        let stub = StubTransport()
        stub.answer(.post("notes"), with: .status(.serviceUnavailable), .json(Note(id: 1, text: "hello"), status: .created))
        let client = Client(baseURL: "https://api.example.com/v1", transport: stub) {
            $0.commonParameters.query["api_version"] = "1"
            $0.commonParameters.headerFields[.acceptLanguage] = "en"
            $0.middleware = [FreshTokenMiddleware(token: "first")]
        }
        let queue = try OfflineQueue(client: client, name: "notes", directory: folder.url) {
            $0.backoff = Backoff(base: .zero, maximum: .zero)
        }
        let request = Request<Note>(.post, "notes", query: ["access_token": "query-secret", "draft": true], body: .json(Note(id: 0, text: "hello")))
            .header(.authorization, "Bearer header-secret")
        let entry = try await queue.enqueue(request, kind: "createNote")
        #expect(entry.kind == "createNote")
        #expect(entry.state == .pending)

        for file in try FileManager.default.contentsOfDirectory(at: folder.url, includingPropertiesForKeys: nil) where !file.hasDirectoryPath {
            let bytes = try Data(contentsOf: file)
            for secret in ["query-secret", "header-secret", "api_version", "Accept-Language"] {
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) found in \(file.lastPathComponent)")
            }
        }

        client.configuration.commonParameters.query["api_version"] = "2"
        client.configuration.middleware = [FreshTokenMiddleware(token: "second")]
        await queue.drain()  // 503: kept, due at once (no backoff)
        await queue.drain()
        let sent = stub.requests
        #expect(sent.count == 2)
        #expect(sent.allSatisfy { $0.headerFields[.authorization] == "Bearer second" })
        #expect(sent.allSatisfy { $0.queryValue("api_version") == "2" && $0.queryValue("access_token") == nil && $0.queryValue("draft") == "true" })
        #expect(sent.allSatisfy { $0.headerFields[.idempotencyKey] == entry.idempotencyKey })
        #expect(try sent.map { try $0.decodedBody(as: Note.self) } == [Note(id: 0, text: "hello"), Note(id: 0, text: "hello")])
        #expect(try await queue.count() == 0)
    }

    @Test("a GET, a file that is gone and an invalid request fail at enqueue, storing nothing")
    func refusedAtEnqueue() async throws {
        let folder = try QueueFolder()
        defer { folder.remove() }
        let queue = try OfflineQueue(client: Client(baseURL: "https://api.example.com", transport: StubTransport()), directory: folder.url)
        let get = await capture { try await queue.enqueue(Request<Data>(.get, "notes")) }
        #expect(get.error?.kind == .invalidRequest)
        let gone = folder.url.appendingPathComponent("gone.bin")
        let file = await capture { try await queue.enqueue(Request<Void>(.put, "files/1", body: .file(gone))) }
        #expect(file.error?.kind == .fileAccessFailed)
        let invalid = await capture { try await queue.enqueue(Request<Void>(.post, "notes").requiring(false, "Text Required")) }
        #expect(invalid.error?.kind == .invalidRequest)
        #expect(try await queue.count() == 0)
    }

    @Test("a file body is copied into the queue's folder and sent after the original is gone")
    func fileBodyCopied() async throws {
        let folder = try QueueFolder()
        defer { folder.remove() }
        let original = folder.url.appendingPathComponent("photo.jpg")
        try Data("JPEG bytes".utf8).write(to: original)
        let stub = StubTransport()
        stub.answer(.put("photos/7"), with: .status(.noContent))
        let queue = try OfflineQueue(client: Client(baseURL: "https://api.example.com", transport: stub), directory: folder.url)
        try await queue.enqueue(Request<Void>(.put, "photos/7", body: .file(original, contentType: "image/jpeg")))
        try FileManager.default.removeItem(at: original)
        await queue.drain()
        #expect(stub.requests.first?.body == Data("JPEG bytes".utf8))
        #expect(stub.requests.first?.headerFields[.contentType] == "image/jpeg")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("default.bodies").path).isEmpty)
    }

    @Test("a form with a file part is written into the queue's folder whole and sent after the file is gone")
    func formWithFileQueued() async throws {
        let folder = try QueueFolder()
        defer { folder.remove() }
        let original = folder.url.appendingPathComponent("clip.mp4")
        try Data("MP4 bytes".utf8).write(to: original)
        var form = MultipartFormData()
        form.append("day 3", named: "caption")
        form.appendFile(at: original, named: "video", contentType: "video/mp4")
        let stub = StubTransport()
        stub.answer(.post("videos"), with: .status(.noContent))
        let queue = try OfflineQueue(client: Client(baseURL: "https://api.example.com", transport: stub), directory: folder.url)
        try await queue.enqueue(Request<Void>(.post, "videos", body: .multipart(form)))
        try FileManager.default.removeItem(at: original)
        await queue.drain()
        let sent = try #require(stub.requests.first)
        let contentType = try #require(sent.headerFields[.contentType])
        #expect(contentType.hasPrefix("multipart/form-data; boundary="))
        let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
        let expected =
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nday 3\r\n"
            + "--\(boundary)\r\nContent-Disposition: form-data; name=\"video\"; filename=\"clip.mp4\"\r\n"
            + "Content-Type: video/mp4\r\n\r\nMP4 bytes\r\n--\(boundary)--\r\n"
        #expect(sent.body == Data(expected.utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("default.bodies").path).isEmpty)
    }

    @Test("a reopened queue delivers in enqueue order and reports the raw response, decoded as registered")
    func reopenedQueueDecodes() async throws {
        let folder = try QueueFolder()
        defer { folder.remove() }
        let stub = StubTransport()
        stub.answer(.post("notes")) { request in
            let note = (try? request.decodedBody(as: Note.self)) ?? Note(id: -1, text: "")
            return .json(Note(id: note.text.count, text: note.text), status: .created)
        }
        let client = Client(baseURL: "https://api.example.com", transport: stub)
        do {
            let first = try OfflineQueue(client: client, name: "notes", directory: folder.url)
            for text in ["a", "bb", "ccc"] {
                try await first.enqueue(Request<Note>(.post, "notes", body: .json(Note(id: 0, text: text))), kind: "createNote")
            }
        }
        let reopened = try OfflineQueue(client: client, name: "notes", directory: folder.url) {
            $0.decode(Note.self, forKind: "createNote")
        }
        #expect(try await reopened.entries().map(\.kind) == ["createNote", "createNote", "createNote"])
        let events = reopened.events
        await reopened.drain()
        let delivered = await read(events) { if case .drainFinished = $0 { true } else { false } }
            .compactMap { event -> Note? in
                guard case .delivered(_, let response) = event, response.status == .created else { return nil }
                return response.value as? Note
            }
        #expect(delivered == [Note(id: 1, text: "a"), Note(id: 2, text: "bb"), Note(id: 3, text: "ccc")])
        #expect(try stub.requests.map { try $0.decodedBody(as: Note.self).text } == ["a", "bb", "ccc"])
    }

    @Test("a 503 with Retry-After is not sent again before the server's time, by the client's clock")
    func retryAfterNotEarly() async throws {
        let folder = try QueueFolder()
        defer { folder.remove() }
        let date = MovableDate(Date(timeIntervalSince1970: 1_800_000_000))
        let stub = StubTransport()
        stub.answer(.post("notes"), with: .status(.serviceUnavailable, headerFields: [.retryAfter: "30"]), .status(.created))
        let client = Client(baseURL: "https://api.example.com", transport: stub) { $0.currentDate = { date.now } }
        let queue = try OfflineQueue(client: client, directory: folder.url) { $0.random = { 0 } }
        let events = queue.events
        try await queue.enqueue(Request<Void>(.post, "notes", body: .json(Note(id: 0, text: "x"))))
        await queue.drain()
        #expect(stub.requests.count == 1)
        date.advance(seconds: 29)
        await queue.drain()
        #expect(stub.requests.count == 1)
        date.advance(seconds: 1)
        await queue.drain()
        #expect(stub.requests.count == 2)
        #expect(try await queue.count() == 0)
        let waits = await read(events) { if case .delivered = $0 { true } else { false } }
            .compactMap { event -> Duration? in if case .willRetry(_, let after) = event { after } else { nil } }
        #expect(waits == [.seconds(30)])
    }

    @Test("the maximum number of attempts and the time to live each end in a failed entry and an event")
    func limits() async throws {
        let folder = try QueueFolder()
        defer { folder.remove() }
        let date = MovableDate(Date(timeIntervalSince1970: 1_800_000_000))
        let stub = StubTransport()
        stub.answer(.post("a"), with: .status(.internalServerError))
        let client = Client(baseURL: "https://api.example.com", transport: stub) { $0.currentDate = { date.now } }
        let queue = try OfflineQueue(client: client, directory: folder.url) {
            $0.maximumAttempts = 2
            $0.timeToLive = .seconds(3600)
            $0.backoff = Backoff(base: .zero, maximum: .zero)
        }
        let events = queue.events
        try await queue.enqueue(Request<Void>(.post, "a"))
        await queue.drain()
        await queue.drain()
        try await queue.enqueue(Request<Void>(.post, "b"))
        date.advance(seconds: 3601)
        await queue.drain()
        let states = try await queue.entries().map(\.state)
        #expect(states == [.failed(.attemptsExhausted), .failed(.expired)])
        let seen = await read(events) { if case .expired = $0 { true } else { false } }
            .compactMap { event -> String? in
                switch event {
                case .attemptsExhausted(let entry): "exhausted \(entry.path)"
                case .expired(let entry): "expired \(entry.path)"
                default: nil
                }
            }
        #expect(seen == ["exhausted a", "expired b"])
        #expect(stub.requests.count == 2)
    }
}
#endif

#if OfflineQueue
@Suite("The offline queue drains when the network comes back")
struct ConnectivityDrainTests {
    @Test("an entry waiting after a connection failure is sent as soon as the monitor reports the network back")
    func drainsOnConnectivity() async throws {
        let folder = try QueueFolder()
        defer { folder.remove() }
        let stub = StubTransport()
        stub.answer(.post("notes"), with: .failure(.offline), .status(.created))
        let monitor = StubConnectivityMonitor()
        let client = Client(baseURL: "https://api.example.com", transport: stub)
        let queue = try OfflineQueue(client: client, directory: folder.url) {
            $0.connectivity = monitor
            $0.backoff = Backoff(base: .seconds(3600), maximum: .seconds(3600))
            $0.random = { 1 }
        }
        let events = queue.events
        try await queue.enqueue(Request<Void>(.post, "notes"))
        queue.start()
        _ = await read(events) { if case .willRetry = $0 { true } else { false } }
        #expect(stub.requests.count == 1)
        monitor.set(connected: true)
        let seen = await read(events) { if case .delivered = $0 { true } else { false } }
        #expect(seen.contains { if case .drainStarted(.connectivity) = $0 { true } else { false } })
        await queue.stop()
        #expect(stub.requests.count == 2)
        #expect(try await queue.count() == 0)
    }
}
#endif
