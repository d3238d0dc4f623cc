import Courier
import Foundation
import TestSupport
import Testing

@Suite("Against httpbin under gunicorn: the HTTP core, as gunicorn's access log records it", .requires(.pythonServers))
struct HTTPBinInteropTests {
    @Test("a GET with a query reaches httpbin, which echoes it and records the request line", arguments: TransportKind.allCases)
    func get(transport: TransportKind) async throws {
        try await withInteropServer(try await HTTPBinServer.start()) { httpbin in
            let client = Client(baseURL: BaseURL(httpbin.baseURL), transport: transport.make())
            let echo = try await client.send(Request<JSONValue>(.get, "get", query: ["q": "interop"]))
            #expect(echo["args"]?["q"]?.stringValue == "interop")
            let record = try await httpbin.accessRecord { $0.request.hasPrefix("GET /get?q=interop ") }
            #expect(record.status == "200")
        }
    }

    @Test("three cookies set in one response all go to the jar, and all three come back on the next request", arguments: TransportKind.allCases)
    func cookies(transport: TransportKind) async throws {
        try await withInteropServer(try await HTTPBinServer.start()) { httpbin in
            let jar = CookieJar()
            let client = Client(baseURL: BaseURL(httpbin.baseURL), transport: transport.make()) { $0.cookieJar = jar }
            // httpbin answers with three Set-Cookie fields and a redirect to /cookies, which echoes what came back.
            let echoed = try await client.send(Request<JSONValue>(.get, "cookies/set", query: ["a": "1", "b": "2", "c": "3"]))
            let record = try await httpbin.accessRecord { $0.request.hasPrefix("GET /cookies ") }
            // Foundation joins the three fields into one value; the URLSession transport splits them again.
            #expect(Set(jar.cookies.map(\.name)) == ["a", "b", "c"])
            #expect(echoed["cookies"] == ["a": "1", "b": "2", "c": "3"])
            #expect(Set(record.cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }) == ["a=1", "b=2", "c=3"])
        }
    }
}
