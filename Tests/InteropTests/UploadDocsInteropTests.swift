import Courier
import Foundation
import TestSupport
import Testing

/// Checks of "Large transfers" (Uploads from disk) and "Files, streams and progress", written from
/// the articles alone: what nginx stores and records, and what httpbin's parser reads.
@Suite("Uploads from disk as Large transfers describes them, as nginx stores and records them", .requires(.nginx, .pythonServers))
struct UploadDocsInteropTests {
    /// How a check changes the file after the request is built.
    enum SizeChange: String, CaseIterable, Sendable, CustomStringConvertible {
        case grows, shrinks
        var description: String { rawValue }
    }

    /// How a check sends the file.
    enum Shape: String, CaseIterable, Sendable, CustomStringConvertible {
        case file, form
        var description: String { rawValue }
    }

    @Test(".file body: nginx stores the exact bytes, sent with Content-Length and never chunked; upload progress grows to the file's size", arguments: TransportKind.allCases)
    func fileBody(transport: TransportKind) async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try await withTemporaryDirectory { directory in
                let size = (3 << 20) + 17
                let file = directory.appendingPathComponent("recording.mp4")
                try PatternFile.write(size, to: file)
                let log = ProgressLog()
                let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport.make())
                let sent = await capture {
                    try await client.send(Request<Void>(.put, "uploads/recording.mp4", body: .file(file, contentType: "video/mp4"))) { log.record($0) }
                }
                #expect(sent.error == nil)
                let record = try await nginx.accessRecord { $0.uri == "/uploads/recording.mp4" }
                #expect(record.status == 201)
                #expect(record.contentLength == String(size))
                #expect(record.transferEncoding.isEmpty)
                #expect(try Data(contentsOf: nginx.uploadsDirectory.appendingPathComponent("recording.mp4")) == Data(contentsOf: file))
                let uploads = log.all.filter { $0.direction == .upload }
                #expect(uploads.last?.completedBytes == Int64(size))
                #expect(uploads.last?.totalBytes == Int64(size))
                #expect(zip(uploads, uploads.dropFirst()).allSatisfy { $0.completedBytes <= $1.completedBytes })
            }
        }
    }

    @Test("a form with a file from disk: nginx stores a body of its Content-Length whose file part is the file's exact bytes", arguments: TransportKind.allCases)
    func formToNginx(transport: TransportKind) async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try await withTemporaryDirectory { directory in
                let size = (2 << 20) + 3
                let video = directory.appendingPathComponent("day3.mp4")
                try PatternFile.write(size, to: video)
                var form = MultipartFormData()
                form.append("Holiday, day 3", named: "caption")
                form.appendFile(at: video, named: "video", filename: "day3.mp4", contentType: "video/mp4")
                let log = ProgressLog()
                let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport.make())
                let sent = await capture {
                    try await client.send(Request<Void>(.put, "uploads/form.bin", body: .multipart(form))) { log.record($0) }
                }
                #expect(sent.error == nil)
                let record = try await nginx.accessRecord { $0.uri == "/uploads/form.bin" }
                #expect(record.status == 201)
                #expect(record.transferEncoding.isEmpty)
                let stored = try Data(contentsOf: nginx.uploadsDirectory.appendingPathComponent("form.bin"))
                #expect(record.contentLength == String(stored.count))
                let parts = Self.parts(of: stored)
                #expect(parts.count == 2)
                #expect(parts.first { $0.headers.contains(#"name="caption""#) }?.content == Data("Holiday, day 3".utf8))
                let videoPart = parts.first { $0.headers.contains(#"name="video""#) }
                #expect(videoPart?.headers.contains(#"filename="day3.mp4""#) == true)
                #expect(videoPart?.content == (try Data(contentsOf: video)))
                let uploads = log.all.filter { $0.direction == .upload }
                #expect(uploads.last?.completedBytes == Int64(stored.count))
                #expect(uploads.last?.totalBytes == Int64(stored.count))
            }
        }
    }

    @Test("a form mixing a file from disk and parts in memory is read by httpbin's own parser, sent with Content-Length", arguments: TransportKind.allCases)
    func formToHTTPBin(transport: TransportKind) async throws {
        try await withInteropServer(try await HTTPBinServer.start()) { httpbin in
            try await withTemporaryDirectory { directory in
                let notes = directory.appendingPathComponent("notes.txt")
                let text = String(repeating: "line of notes, with ünïcode\n", count: 4000)
                try Data(text.utf8).write(to: notes)
                var form = MultipartFormData()
                form.append("Holiday, day 3", named: "caption")
                form.appendFile(at: notes, named: "notes", filename: "notes.txt", contentType: "text/plain")
                form.append(Data("in memory".utf8), named: "extra", filename: "extra.txt", contentType: "text/plain")
                let client = Client(baseURL: BaseURL(httpbin.baseURL), transport: transport.make())
                let echo = await capture { try await client.send(Request<JSONValue>(.post, "post", body: .multipart(form))) }
                let json = try echo.get()
                #expect(json["form"]?["caption"]?.stringValue == "Holiday, day 3")
                #expect(json["files"]?["notes"]?.stringValue == text)
                #expect(json["files"]?["extra"]?.stringValue == "in memory")
                let record = try await httpbin.accessRecord { $0.request.hasPrefix("POST /post") }
                #expect(Int(record.contentLength) ?? 0 > text.utf8.count)
                #expect(record.transferEncoding == "-")
            }
        }
    }

    @Test(
        "a file that changes size after the request is built fails with fileAccessFailed (changed size), and nginx stores nothing",
        arguments: TransportKind.allCases, Shape.allCases
    )
    func fileChangesSize(transport: TransportKind, shape: Shape) async throws {
        for change in SizeChange.allCases {
            try await withInteropServer(try await NginxServer.start()) { nginx in
                try await withTemporaryDirectory { directory in
                    let file = directory.appendingPathComponent("changing.bin")
                    try PatternFile.write((1 << 20) + 9, to: file)
                    var form = MultipartFormData()
                    form.appendFile(at: file, named: "file", filename: "changing.bin", contentType: "application/octet-stream")
                    let body: RequestBody = shape == .file ? .file(file) : .multipart(form)
                    let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport.make()) {
                        $0.middleware = [ResizingMiddleware(file: file, change: change)]
                    }
                    let name = "\(shape)-\(change).bin"
                    let sent = await capture { try await client.send(Request<Void>(.put, "uploads/\(name)", body: body)) }
                    #expect(sent.error?.kind == .fileAccessFailed, "\(change): \(String(describing: sent.error))")
                    #expect(sent.error?.message?.contains("changed size") == true, "\(change): \(sent.error?.message ?? "no message")")
                    #expect(!FileManager.default.fileExists(atPath: nginx.uploadsDirectory.appendingPathComponent(name).path))
                    #expect(!nginx.accessRecords.contains { $0.uri == "/uploads/\(name)" && $0.status == 201 })
                    if transport == .urlSession {
                        // URLSession's upload task checks the size before it starts: nothing is sent.
                        try await client.send(Request<Void>(.get, "sink", query: ["probe": name]))
                        _ = try await nginx.accessRecord { $0.uri == "/sink?probe=\(name)" }
                        #expect(!nginx.accessRecords.contains { $0.uri == "/uploads/\(name)" })
                    }
                }
            }
        }
    }

    /// A form's parts as stored: each part's header block and content, split at the boundary that
    /// opens the body.
    private static func parts(of body: Data) -> [(headers: String, content: Data)] {
        guard let firstLineEnd = body.range(of: Data("\r\n".utf8)) else { return [] }
        let delimiter = Data("\r\n".utf8) + body[body.startIndex..<firstLineEnd.lowerBound]
        var parts: [(String, Data)] = []
        var cursor = firstLineEnd.upperBound
        while let end = body.range(of: delimiter, in: cursor..<body.endIndex) {
            let part = body[cursor..<end.lowerBound]
            if let split = part.range(of: Data("\r\n\r\n".utf8)) {
                parts.append((String(decoding: part[part.startIndex..<split.lowerBound], as: UTF8.self), Data(part[split.upperBound...])))
            }
            cursor = end.upperBound + 2
        }
        return parts
    }
}

/// Makes the file longer or shorter once the request is built (its size already read), before
/// the transport reads it.
private struct ResizingMiddleware: Middleware {
    let file: URL
    let change: UploadDocsInteropTests.SizeChange

    func intercept(_ request: HTTPRequest, body: HTTPBody?, context: MiddlewareContext, next: MiddlewareNext) async throws -> MiddlewareResponse {
        let handle = try FileHandle(forWritingTo: file)
        switch change {
        case .grows:
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("grown after the size was read".utf8))
        case .shrinks:
            try handle.truncate(atOffset: 4096)
        }
        try handle.close()
        return try await next(request, body, context)
    }
}
