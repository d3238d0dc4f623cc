import Courier
import Foundation
import TestSupport
import Testing

@Suite("Against nginx: a cached response revalidated with its ETag and Last-Modified, as nginx's access log records it", .requires(.nginx))
struct CacheRevalidationInteropTests {
    static let contents = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })

    @Test("a stored response asked for with .revalidate is confirmed by a 304 from nginx and comes back revalidated", arguments: TransportKind.allCases)
    func revalidate(transport: TransportKind) async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try nginx.writeFile("cached.bin", Self.contents)
            let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport.make()) {
                $0.middleware = [CachingMiddleware(ResponseCache())]
            }
            let first = try await client.response(for: Request<Data>(.get, "cached.bin"))
            #expect(first.source == .network)
            let eTag = try #require(first.headerFields[.eTag])
            let lastModified = try #require(first.headerFields[.lastModified])

            let second = try await client.response(for: Request<Data>(.get, "cached.bin").cachePolicy(.revalidate))
            #expect(second.source == .revalidated)
            #expect(second.value == Self.contents)
            let records = try await InteropRecordMissing.wait(for: "two GETs of cached.bin", within: .seconds(30), record: nginx.errorLog) {
                let records = nginx.accessRecords.filter { $0.uri == "/cached.bin" }
                return records.count == 2 ? records : nil
            }
            #expect(records.map(\.status) == [200, 304])
            #expect(records[0].ifNoneMatch.isEmpty)
            #expect(records[1].ifNoneMatch == eTag)
            #expect(records[1].ifModifiedSince == lastModified)
            #expect(records[1].bodyBytesSent == 0)
        }
    }

    @Test("a file changed on the server is revalidated to a 200 with the new bytes", arguments: TransportKind.allCases)
    func changed(transport: TransportKind) async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            let file = try nginx.writeFile("changing.bin", Self.contents)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: file.path)
            let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport.make()) {
                $0.middleware = [CachingMiddleware(ResponseCache())]
            }
            _ = try await client.send(Request<Data>(.get, "changing.bin"))
            let changed = Data(Self.contents.reversed())
            try nginx.writeFile("changing.bin", changed)
            let second = try await client.response(for: Request<Data>(.get, "changing.bin").cachePolicy(.revalidate))
            #expect(second.source == .network)
            #expect(second.value == changed)
            let records = try await InteropRecordMissing.wait(for: "two GETs of changing.bin", within: .seconds(30), record: nginx.errorLog) {
                let records = nginx.accessRecords.filter { $0.uri == "/changing.bin" }
                return records.count == 2 ? records : nil
            }
            #expect(records.map(\.status) == [200, 200])
            #expect(!records[1].ifNoneMatch.isEmpty)
        }
    }
}
