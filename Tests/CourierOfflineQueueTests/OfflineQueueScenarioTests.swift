// Compiled with the package trait `OfflineQueue`, as the module under test is.
#if OfflineQueue
import Courier
import CourierOfflineQueue
import ExampleAPIs
import Foundation
import ReferenceServer
import TestSupport
import Testing

@Suite("The offline queue against the reference server, on both transports", .serialized)
struct OfflineQueueScenarioTests {
    @Test("100 changes enqueued while the server is down reach it exactly once, in order, after a restart", arguments: QueueTransport.allCases)
    func hundredAfterRestart(transport: QueueTransport) async throws {
        let folder = try QueueFolder()
        defer { folder.remove() }
        let port = try await ReferenceServer.unusedPort()
        let client = Client(baseURL: BaseURL("http://127.0.0.1:\(port)"), transport: transport.make())
        do {
            let queue = try OfflineQueue(client: client, name: "journal", directory: folder.url) {
                $0.backoff = Backoff(base: .milliseconds(1), maximum: .milliseconds(1))
            }
            for value in 0..<100 { try await queue.enqueue(journalEntry("hundred", value)) }
            await queue.drain()  // nothing listens: the head fails to connect and waits
            #expect(try await queue.count() == 100)
        }
        try await withServer(port: port) { server in
            let reopened = try OfflineQueue(client: client, name: "journal", directory: folder.url)
            try await Task.sleep(for: .milliseconds(5))  // the head's backoff
            await reopened.drain()
            #expect(try await reopened.count() == 0)
            #expect(await server.journal("hundred") == Array(0..<100))
        }
    }

    @Test("a replay of a delivered key gets the first result and changes nothing; another body with it gets 422", arguments: QueueTransport.allCases)
    func serverIdempotency(transport: QueueTransport) async throws {
        try await withServer { server in
            let client = Client(baseURL: BaseURL(server.baseURL), transport: transport.make())
            let first = try await client.response(for: journalEntry("keyed", 7).header(.idempotencyKey, "key-1"))
            let replay = try await client.response(for: journalEntry("keyed", 7).header(.idempotencyKey, "key-1"))
            #expect(replay.value == first.value)
            #expect(replay.headerFields[HTTPField.Name("Idempotent-Replayed")!] == "true")
            let other = await capture { try await client.send(journalEntry("keyed", 8).header(.idempotencyKey, "key-1")) }
            #expect(other.error?.status == .unprocessableContent)
            #expect(await server.journal("keyed") == [7])
            #expect(await server.idempotentReplayCount == 1)
        }
    }

    @Test("503 with Retry-After for a while, then 200: everything is delivered, and nothing is sent early", arguments: QueueTransport.allCases)
    func unavailableThenAvailable(transport: QueueTransport) async throws {
        let folder = try QueueFolder()
        defer { folder.remove() }
        try await withServer { server in
            let date = TestDate()
            let client = Client(baseURL: BaseURL(server.baseURL), transport: transport.make()) { $0.currentDate = date.function }
            let queue = try OfflineQueue(client: client, directory: folder.url) { $0.random = { 0 } }
            for value in 0..<5 { try await queue.enqueue(journalEntry("busy", value, query: ["failures": 3, "retry_after": 20])) }
            var sent = 0
            for _ in 0..<3 {
                await queue.drain()
                sent += 1
                #expect(await server.hits(forKey: "journal/busy") == sent)
                date.advance(by: .seconds(19))
                await queue.drain()
                #expect(await server.hits(forKey: "journal/busy") == sent, "sent before Retry-After")
                date.advance(by: .seconds(1))
            }
            await queue.drain()
            #expect(try await queue.count() == 0)
            #expect(await server.journal("busy") == Array(0..<5))
        }
    }

    @Test("a token that expired while entries waited is refreshed and every entry delivered", arguments: QueueTransport.allCases)
    func expiredToken(transport: QueueTransport) async throws {
        let folder = try QueueFolder()
        defer { folder.remove() }
        var options = ReferenceServer.Options()
        options.tokenLifetime = .milliseconds(1500)
        options.refreshedTokenLifetime = .seconds(120)
        try await withServer(options: options) { server in
            let environment = ServerEnvironment.custom(BaseURL(server.baseURL))
            let auth = AuthService(client: .auth(environment: environment, transport: transport.make()))
            let login = try await auth.authenticate(email: ReferenceServer.demoCredentials.email, password: ReferenceServer.demoCredentials.password)
            // Without an expiry date the client cannot renew early: the server's 401 triggers it.
            try auth.session.signIn(AuthTokens(accessToken: login.token, refreshToken: login.refreshToken))
            let social = Client.social(environment: environment, session: auth.session, transport: transport.make())
            let queue = try OfflineQueue(client: social, name: "friends", directory: folder.url)
            for friend in [2, 3, 4] { try await queue.enqueue(SocialAPI.addFriend(friend, to: 1), kind: "addFriend") }
            try await Task.sleep(for: .milliseconds(1700))
            await queue.drain()
            #expect(try await queue.count() == 0)
            #expect(await server.friendAdditionCount == 3)
            #expect(auth.session.refreshCount == 1)
        }
    }

    @Test(
        "a 401 that cannot be refreshed reaches the server once, waits quietly, and is delivered once after sign-in",
        arguments: QueueTransport.allCases)
    func unrefreshable401(transport: QueueTransport) async throws {
        let folder = try QueueFolder()
        defer { folder.remove() }
        try await withServer { server in
            let environment = ServerEnvironment.custom(BaseURL(server.baseURL))
            let refreshes = LockedBox(0)
            let session = AuthenticationSession { _ in
                refreshes.increment()
                throw CourierError(.unauthorized, message: "No way to renew.")
            }
            try session.signIn(AuthTokens(accessToken: "revoked"))
            let social = Client.social(environment: environment, session: session, transport: transport.make())
            let queue = try OfflineQueue(client: social, name: "friends", directory: folder.url) {
                $0.authentication = session
                $0.backoff = Backoff(base: .milliseconds(20), maximum: .milliseconds(100))
            }
            let events = queue.events
            let before = server.requestCount
            queue.start()
            let entry = try await queue.enqueue(SocialAPI.addFriend(2, to: 1), kind: "addFriend")
            let beforeSignIn = await read(events) { if case .authenticationRequired = $0 { true } else { false } }
            try await Task.sleep(for: .seconds(10))
            #expect(server.requestCount - before == 1, "one delivery, and nothing while the queue waits")
            #expect(refreshes.value == 1)
            let waiting = try await queue.entries()
            #expect(waiting.map(\.id) == [entry.id])
            #expect(waiting.first?.attempts == 0)
            #expect(waiting.first?.state == .pending)

            let login = try await Client.auth(environment: environment, apiVersion: "7", deviceType: "tests", transport: transport.make())
                .send(AuthAPI.authenticate(email: ReferenceServer.demoCredentials.email, password: ReferenceServer.demoCredentials.password))
            try session.signIn(login.tokens)
            let seen = beforeSignIn + (await read(events) { if case .delivered = $0 { true } else { false } })
            await queue.stop()
            #expect(await server.friendAdditionCount == 1)
            #expect(server.requestCount - before == 3, "the refused delivery, the login, the delivery")
            #expect(try await queue.count() == 0)
            let required = seen.filter { if case .authenticationRequired = $0 { true } else { false } }
            #expect(required.count == 1)
        }
    }

    @Test("entries held back by a 401 go again when the app calls resumeAfterSignIn()", arguments: QueueTransport.allCases)
    func explicitSignInSignal(transport: QueueTransport) async throws {
        let folder = try QueueFolder()
        defer { folder.remove() }
        try await withServer { server in
            let environment = ServerEnvironment.custom(BaseURL(server.baseURL))
            let session = AuthenticationSession { _ in throw CourierError(.unauthorized) }
            try session.signIn(AuthTokens(accessToken: "revoked"))
            let social = Client.social(environment: environment, session: session, transport: transport.make())
            let queue = try OfflineQueue(client: social, name: "friends", directory: folder.url)
            for friend in [2, 3] { try await queue.enqueue(SocialAPI.addFriend(friend, to: 1), kind: "addFriend") }
            let before = server.requestCount
            await queue.drain()
            await queue.drain()
            #expect(server.requestCount - before == 1, "the second drain sends nothing that needs sign-in")
            #expect(try await queue.count() == 2)

            let auth = AuthService(client: .auth(environment: environment, transport: transport.make()))
            let login = try await auth.authenticate(email: ReferenceServer.demoCredentials.email, password: ReferenceServer.demoCredentials.password)
            // Without `authentication` in its configuration, the queue hears of a sign-in only from the app.
            try session.signIn(login.tokens)
            await queue.drain()
            #expect(try await queue.count() == 2)
            await queue.resumeAfterSignIn()
            await queue.drain()
            #expect(try await queue.count() == 0)
            #expect(await server.friendAdditionCount == 2)
        }
    }

    @Test("a started queue that nothing holds any more stops sending", arguments: QueueTransport.allCases)
    func releasedQueueStops(transport: QueueTransport) async throws {
        let folder = try QueueFolder()
        defer { folder.remove() }
        try await withServer { server in
            let client = Client(baseURL: BaseURL(server.baseURL), transport: transport.make())
            var queue: OfflineQueue? = try OfflineQueue(client: client, directory: folder.url) {
                $0.backoff = Backoff(base: .milliseconds(10), maximum: .milliseconds(20))
                $0.maximumAttempts = 1_000_000
            }
            queue?.start()
            try await queue?.enqueue(journalEntry("forever", 1, query: ["failures": 1_000_000]))
            #expect(await eventually { server.requestCount >= 3 }, "the queue drains by itself")
            queue = nil
            try await Task.sleep(for: .seconds(1))
            let afterRelease = server.requestCount
            try await Task.sleep(for: .seconds(3))
            #expect(server.requestCount == afterRelease)
        }
    }

    @Test("a refused entry is kept and reported; the rest go on, unless ordering is strict", arguments: QueueTransport.allCases)
    func refusedEntry(transport: QueueTransport) async throws {
        let folder = try QueueFolder()
        defer { folder.remove() }
        try await withServer { server in
            let client = Client(baseURL: BaseURL(server.baseURL), transport: transport.make())
            let independent = try OfflineQueue(client: client, name: "independent", directory: folder.url)
            let events = independent.events
            for value in [1, -2, 3] { try await independent.enqueue(journalEntry("loose", value)) }
            await independent.drain()
            #expect(await server.journal("loose") == [1, 3])
            let kept = try await independent.entries()
            #expect(kept.map(\.state) == [.failed(.rejected(.badRequest))])
            #expect(kept.first?.lastResponse?.status == .badRequest)
            let seen = await read(events) { if case .rejected = $0 { true } else { false } }
            if case .rejected(let entry, let response) = seen.last {
                #expect(entry.id == kept.first?.id)
                #expect(String(decoding: response.body, as: UTF8.self).contains("cannot be negative"))
            }

            let strict = try OfflineQueue(client: client, name: "strict", directory: folder.url) { $0.ordering = .strict }
            for value in [1, -2, 3] { try await strict.enqueue(journalEntry("ordered", value)) }
            await strict.drain()
            await strict.drain()
            #expect(await server.journal("ordered") == [1])
            let blocked = try await strict.entries()
            #expect(blocked.map(\.state) == [.failed(.rejected(.badRequest)), .pending])
            let head = try #require(blocked.first)
            try await strict.discard(head.id)
            await strict.drain()
            #expect(await server.journal("ordered") == [1, 3])
            #expect(try await strict.count() == 0)
        }
    }

    @Test("once started, the queue drains by itself: at launch, after an enqueue and when a wait ends", arguments: QueueTransport.allCases)
    func drainsByItself(transport: QueueTransport) async throws {
        let folder = try QueueFolder()
        defer { folder.remove() }
        try await withServer { server in
            let client = Client(baseURL: BaseURL(server.baseURL), transport: transport.make())
            let queue = try OfflineQueue(client: client, directory: folder.url)
            try await queue.enqueue(journalEntry("auto", 0))
            let events = queue.events
            queue.start()
            try await queue.enqueue(journalEntry("auto", 1, query: ["failures": 2, "retry_after": 1]))
            try await queue.enqueue(journalEntry("auto", 2))
            let delivered = LockedBox(0)
            _ = await read(events) { event in
                if case .delivered = event { delivered.increment() }
                return delivered.value == 3
            }
            await queue.stop()
            #expect(await server.journal("auto") == [0, 1, 2])
        }
    }
}
#endif
