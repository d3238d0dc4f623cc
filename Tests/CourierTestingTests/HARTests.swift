import Courier
import CourierTesting
import ExampleAPIs
import Foundation
import ReferenceServer
import Testing

@Suite("HAR record and replay: real exchanges recorded without credentials, replayed to the same values")
struct HARTests {
    /// Records a login, the friends of the demo user and a page of movies from the reference server.
    static func record(_ server: ReferenceServer) async throws -> (archive: HARArchive, friends: [User], movies: MovieApiResponse) {
        let recorder = HARRecorder(.urlSession())
        let environment = ServerEnvironment.custom(BaseURL(server.baseURL))
        let auth = AuthService(client: .auth(environment: environment, transport: recorder))
        try await auth.authenticate(email: ReferenceServer.demoCredentials.email, password: ReferenceServer.demoCredentials.password)
        let social = FriendsService(client: .social(environment: environment, session: auth.session, transport: recorder))
        let friends = try await social.load(for: User(id: 1))
        let movies = try await MovieService(client: .movies(environment: environment, apiKey: server.movieAPIKey, transport: recorder)).popular(page: 2)
        _ = try await Client(baseURL: BaseURL(server.baseURL), transport: recorder).send(Request<JSONValue>(.get, "cookies/set", query: ["session": "c00kie"]))
        return (recorder.archive, friends, movies)
    }

    @Test("a HAR file recorded from the reference server replays to the same decoded values")
    func recordAndReplay() async throws {
        let server = try await ReferenceServer.start()
        let recorded: (archive: HARArchive, friends: [User], movies: MovieApiResponse)
        do {
            recorded = try await Self.record(server)
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
        let file = FileManager.default.temporaryDirectory.appending(path: "courier-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: file) }
        try recorded.archive.write(to: file)
        let archive = try HARArchive(contentsOf: file)
        #expect(archive == recorded.archive)
        #expect(archive.log.version == "1.2")
        for entry in archive.log.entries {
            // The version URLSession reports (none on Linux), and the phases measured around it, in order.
            #expect(["HTTP/1.1", "unknown"].contains(entry.response.httpVersion))
            #expect(entry.timings.wait >= 0 && entry.timings.receive >= 0 && entry.timings.send >= 0)
            #expect(entry.timings.send + entry.timings.wait + entry.timings.receive <= entry.time + 1)
        }

        // Replayed for clients of another host: no server runs now.
        let stub = StubTransport(replaying: archive)
        let environment = ServerEnvironment.custom("http://replay.invalid")
        let auth = AuthService(client: .auth(environment: environment, transport: stub))
        try await auth.authenticate(email: ReferenceServer.demoCredentials.email, password: ReferenceServer.demoCredentials.password)
        let friends = try await FriendsService(client: .social(environment: environment, session: auth.session, transport: stub)).load(for: User(id: 1))
        let movies = try await MovieService(client: .movies(environment: environment, apiKey: "another-key", transport: stub)).popular(page: 2)
        #expect(friends == recorded.friends)
        #expect(movies == recorded.movies)
    }

    @Test("a recorded file carries no credentials: header fields, query parameters, cookies and body secrets are redacted")
    func redaction() async throws {
        let server = try await ReferenceServer.start()
        let recorded: HARArchive
        do {
            recorded = try await Self.record(server).archive
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
        let file = FileManager.default.temporaryDirectory.appending(path: "courier-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: file) }
        try recorded.write(to: file)
        let text = try String(contentsOf: file, encoding: .utf8)
        let login = try #require(recorded.log.entries.first { $0.request.url.hasSuffix("/authenticate") })
        let token = try #require(try JSONDecoder().decode(JSONValue.self, from: Data((login.response.content.text ?? "").utf8))["token"]?.stringValue)
        #expect(!text.contains(ReferenceServer.demoCredentials.password), "the password leaked")
        #expect(!text.contains("JWT \(token)"), "the Authorization header leaked")
        #expect(!text.contains(server.movieAPIKey), "the api_key leaked")
        #expect(!text.contains("c00kie"), "the cookie leaked")
        let movies = try #require(recorded.log.entries.first { $0.request.url.contains("movie/popular") })
        #expect(movies.request.queryString.contains(HARArchive.NameValue(name: "api_key", value: "<redacted>")))
        let friends = try #require(recorded.log.entries.first { $0.request.url.contains("friends") })
        #expect(friends.request.headers.contains(HARArchive.NameValue(name: "Authorization", value: "<redacted>")))
        let cookies = try #require(recorded.log.entries.first { $0.request.url.contains("cookies/set") })
        #expect(cookies.response.cookies == [HARArchive.NameValue(name: "session", value: "<redacted>")])
    }

    @Test("a HAR file exported elsewhere, with members Courier does not write, replays")
    func foreignArchive() async throws {
        let har = """
            {"log": {"version": "1.2", "creator": {"name": "Proxyman", "version": "5"}, "pages": [], "entries": [
              {"startedDateTime": "2026-01-01T00:00:00.000Z", "time": 12, "cache": {"beforeRequest": null},
               "request": {"method": "GET", "url": "https://api.example.com/v2/accounts/7?token=<redacted>", "headers": [], "cookies": [{"name": "a", "value": "b", "path": "/"}]},
               "response": {"status": 200, "statusText": "OK", "headers": [{"name": "Content-Type", "value": "application/json"}, {"name": "Content-Encoding", "value": "gzip"}],
                            "content": {"size": 24, "mimeType": "application/json", "text": "eyJpZCI6NywibmFtZSI6IkFkYSJ9", "encoding": "base64"}}},
              {"startedDateTime": "2026-01-01T00:00:01.000Z", "time": 0, "request": {"method": "GET", "url": "https://api.example.com/v2/blocked"},
               "response": {"status": 0, "statusText": ""}}
            ]}}
            """
        let archive = try JSONDecoder().decode(HARArchive.self, from: Data(har.utf8))
        let stub = StubTransport(replaying: archive)
        let client = Client.accounts(stub) { $0.commonParameters.query["token"] = "any" }
        #expect(try await client.send(AccountAPI.account(id: 7)) == Account(id: 7, name: "Ada"))
        await #expect(throws: CourierError.self) { try await client.send(Request<Data>(.get, "blocked")) }
    }
}
