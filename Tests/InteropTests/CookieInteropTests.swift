import Courier
import Foundation
import TestSupport
import Testing

@Suite("Against httpbin: cookies kept in the client's CookieJar, as gunicorn's access log records them", .requires(.pythonServers))
struct CookieInteropTests {
    @Test("a cookie set by one call is sent with the next, and a deletion (Max-Age=0) stops it", arguments: TransportKind.allCases)
    func setSendDelete(transport: TransportKind) async throws {
        try await withInteropServer(try await HTTPBinServer.start()) { httpbin in
            let jar = CookieJar()
            let client = Client(baseURL: BaseURL(httpbin.baseURL), transport: transport.make()) { $0.cookieJar = jar }
            // /cookies/set answers 302 to /cookies; the redirect already carries the new cookie.
            let afterSet = try await client.send(Request<JSONValue>(.get, "cookies/set", query: ["flavour": "oat"]))
            #expect(afterSet["cookies"] == ["flavour": "oat"])
            #expect(jar.cookies.map(\.name) == ["flavour"])
            let echoed = try await client.send(Request<JSONValue>(.get, "headers"))
            #expect(echoed["headers"]?["Cookie"]?.stringValue == "flavour=oat")
            let sent = try await httpbin.accessRecord { $0.request.hasPrefix("GET /headers ") }
            #expect(sent.cookie == "flavour=oat")

            let afterDelete = try await client.send(Request<JSONValue>(.get, "cookies/delete", query: ["flavour": ""]))
            #expect(afterDelete["cookies"] == [:])
            #expect(jar.cookies.isEmpty)
            let records = httpbin.accessRecords.filter { $0.request.hasPrefix("GET /cookies ") }
            #expect(records.map(\.cookie) == ["flavour=oat", "-"])
        }
    }

    @Test("without a cookie jar, nothing is kept or sent", arguments: TransportKind.allCases)
    func noJar(transport: TransportKind) async throws {
        try await withInteropServer(try await HTTPBinServer.start()) { httpbin in
            let client = Client(baseURL: BaseURL(httpbin.baseURL), transport: transport.make())
            let afterSet = try await client.send(Request<JSONValue>(.get, "cookies/set", query: ["flavour": "oat"]))
            #expect(afterSet["cookies"] == [:])
            let record = try await httpbin.accessRecord { $0.request.hasPrefix("GET /cookies ") }
            #expect(record.cookie == "-")
        }
    }
}
