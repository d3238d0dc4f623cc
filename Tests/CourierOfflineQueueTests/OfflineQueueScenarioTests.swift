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
    @Test("100 changes enqueued while the server is down reach it exactly once, in order, after a restart", arguments: TransportKind.allCases)
    func hundredAfterRestart(transport: TransportKind) async throws {
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
        var options = ReferenceServer.Options()
        options.port = port
        try await withBackends(transport, options: options) { backends in
            let reopened = try OfflineQueue(client: client, name: "journal", directory: folder.url)
            try await Task.sleep(for: .milliseconds(5))  // the head's backoff
            await reopened.drain()
            #expect(try await reopened.count() == 0)
            #expect(await backends.server.journal("hundred") == Array(0..<100))
        }
    }

    @Test("a replay of a delivered key gets the first result and changes nothing; another body with it gets 422", arguments: TransportKind.allCases)
    func serverIdempotency(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
            let first = try await client.response(for: journalEntry("keyed", 7).header(.idempotencyKey, "key-1"))
            let replay = try await client.response(for: journalEntry("keyed", 7).header(.idempotencyKey, "key-1"))
            #expect(replay.value == first.value)
            #expect(replay.headerFields[HTTPField.Name("Idempotent-Replayed")!] == "true")
            let other = await capture { try await client.send(journalEntry("keyed", 8).header(.idempotencyKey, "key-1")) }
            #expect(other.error?.status == .unprocessableContent)
            #expect(await backends.server.journal("keyed") == [7])
            #expect(await backends.server.idempotentReplayCount == 1)
        }
    }

    @Test("503 with Retry-After for a while, then 200: everything is delivered, and nothing is sent early", arguments: TransportKind.allCases)
    func unavailableThenAvailable(transport: TransportKind) async throws {
        let folder = try QueueFolder()
        defer { folder.remove() }
        try await withBackends(transport) { backends in
            let date = MovableDate(Date(timeIntervalSince1970: 1_800_000_000))
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport) { $0.currentDate = { date.now } }
            let queue = try OfflineQueue(client: client, directory: folder.url) { $0.random = { 0 } }
            for value in 0..<5 { try await queue.enqueue(journalEntry("busy", value, query: ["failures": 3, "retry_after": 20])) }
            var sent = 0
            for _ in 0..<3 {
                await queue.drain()
                sent += 1
                #expect(await backends.server.hits(forKey: "journal/busy") == sent)
                date.advance(seconds: 19)
                await queue.drain()
                #expect(await backends.server.hits(forKey: "journal/busy") == sent, "sent before Retry-After")
                date.advance(seconds: 1)
            }
            await queue.drain()
            #expect(try await queue.count() == 0)
            #expect(await backends.server.journal("busy") == Array(0..<5))
        }
    }

    @Test("a token that expired while entries waited is refreshed and every entry delivered", arguments: TransportKind.allCases)
    func expiredToken(transport: TransportKind) async throws {
        let folder = try QueueFolder()
        defer { folder.remove() }
        var options = ReferenceServer.Options()
        options.tokenLifetime = .milliseconds(1500)
        options.refreshedTokenLifetime = .seconds(120)
        try await withBackends(transport, options: options) { backends in
            let environment = ServerEnvironment.custom(BaseURL(backends.server.baseURL))
            let auth = AuthService(client: .auth(environment: environment, transport: backends.transport))
            let login = try await auth.authenticate(email: ReferenceServer.demoCredentials.email, password: ReferenceServer.demoCredentials.password)
            // Without an expiry date the client cannot renew early: the server's 401 triggers it.
            try auth.session.signIn(AuthTokens(accessToken: login.token, refreshToken: login.refreshToken))
            let social = Client.social(environment: environment, session: auth.session, transport: backends.transport)
            let queue = try OfflineQueue(client: social, name: "friends", directory: folder.url)
            for friend in [2, 3, 4] { try await queue.enqueue(SocialAPI.addFriend(friend, to: 1), kind: "addFriend") }
            try await Task.sleep(for: .milliseconds(1700))
            await queue.drain()
            #expect(try await queue.count() == 0)
            #expect(await backends.server.friendAdditionCount == 3)
            #expect(auth.session.refreshCount == 1)
        }
    }

    @Test(
        "a 401 that cannot be refreshed reaches the server once, waits quietly, and is delivered once after sign-in",
        arguments: TransportKind.allCases)
    func unrefreshable401(transport: TransportKind) async throws {
        let folder = try QueueFolder()
        defer { folder.remove() }
        try await withBackends(transport) { backends in
            let environment = ServerEnvironment.custom(BaseURL(backends.server.baseURL))
            let refreshes = LockedBox(0)
            let session = AuthenticationSession { _ in
                refreshes.increment()
                throw CourierError(.unauthorized, message: "No way to renew.")
            }
            try session.signIn(AuthTokens(accessToken: "revoked"))
            let social = Client.social(environment: environment, session: session, transport: backends.transport)
            let queue = try OfflineQueue(client: social, name: "friends", directory: folder.url) {
                $0.authentication = session
                $0.backoff = Backoff(base: .milliseconds(20), maximum: .milliseconds(100))
            }
            let events = queue.events
            let before = backends.server.requestCount
            queue.start()
            let entry = try await queue.enqueue(SocialAPI.addFriend(2, to: 1), kind: "addFriend")
            let beforeSignIn = await read(events) { if case .authenticationRequired = $0 { true } else { false } }
            try await Task.sleep(for: .seconds(10))
            #expect(backends.server.requestCount - before == 1, "one delivery, and nothing while the queue waits")
            #expect(refreshes.value == 1)
            let waiting = try await queue.entries()
            #expect(waiting.map(\.id) == [entry.id])
            #expect(waiting.first?.attempts == 0)
            #expect(waiting.first?.state == .pending)

            let login = try await Client.auth(environment: environment, apiVersion: "7", deviceType: "tests", transport: backends.transport)
                .send(AuthAPI.authenticate(email: ReferenceServer.demoCredentials.email, password: ReferenceServer.demoCredentials.password))
            try session.signIn(login.tokens)
            let seen = beforeSignIn + (await read(events) { if case .delivered = $0 { true } else { false } })
            await queue.stop()
            #expect(await backends.server.friendAdditionCount == 1)
            #expect(backends.server.requestCount - before == 3, "the refused delivery, the login, the delivery")
            #expect(try await queue.count() == 0)
            let required = seen.filter { if case .authenticationRequired = $0 { true } else { false } }
            #expect(required.count == 1)
        }
    }

    @Test("entries held back by a 401 go again when the app calls resumeAfterSignIn()", arguments: TransportKind.allCases)
    func explicitSignInSignal(transport: TransportKind) async throws {
        let folder = try QueueFolder()
        defer { folder.remove() }
        try await withBackends(transport) { backends in
            let environment = ServerEnvironment.custom(BaseURL(backends.server.baseURL))
            let session = AuthenticationSession { _ in throw CourierError(.unauthorized) }
            try session.signIn(AuthTokens(accessToken: "revoked"))
            let social = Client.social(environment: environment, session: session, transport: backends.transport)
            let queue = try OfflineQueue(client: social, name: "friends", directory: folder.url)
            for friend in [2, 3] { try await queue.enqueue(SocialAPI.addFriend(friend, to: 1), kind: "addFriend") }
            let before = backends.server.requestCount
            await queue.drain()
            await queue.drain()
            #expect(backends.server.requestCount - before == 1, "the second drain sends nothing that needs sign-in")
            #expect(try await queue.count() == 2)

            let auth = AuthService(client: .auth(environment: environment, transport: backends.transport))
            let login = try await auth.authenticate(email: ReferenceServer.demoCredentials.email, password: ReferenceServer.demoCredentials.password)
            // Without `authentication` in its configuration, the queue hears of a sign-in only from the app.
            try session.signIn(login.tokens)
            await queue.drain()
            #expect(try await queue.count() == 2)
            await queue.resumeAfterSignIn()
            await queue.drain()
            #expect(try await queue.count() == 0)
            #expect(await backends.server.friendAdditionCount == 2)
        }
    }

    @Test("a started queue that nothing holds any more stops sending", arguments: TransportKind.allCases)
    func releasedQueueStops(transport: TransportKind) async throws {
        let folder = try QueueFolder()
        defer { folder.remove() }
        try await withBackends(transport) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
            var queue: OfflineQueue? = try OfflineQueue(client: client, directory: folder.url) {
                $0.backoff = Backoff(base: .milliseconds(10), maximum: .milliseconds(20))
                $0.maximumAttempts = 1_000_000
            }
            queue?.start()
            try await queue?.enqueue(journalEntry("forever", 1, query: ["failures": 1_000_000]))
            #expect(await eventually { backends.server.requestCount >= 3 }, "the queue drains by itself")
            queue = nil
            try await Task.sleep(for: .seconds(1))
            let afterRelease = backends.server.requestCount
            try await Task.sleep(for: .seconds(3))
            #expect(backends.server.requestCount == afterRelease)
        }
    }

    @Test("a refused entry is kept and reported; the rest go on, unless ordering is strict", arguments: TransportKind.allCases)
    func refusedEntry(transport: TransportKind) async throws {
        let folder = try QueueFolder()
        defer { folder.remove() }
        try await withBackends(transport) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
            let independent = try OfflineQueue(client: client, name: "independent", directory: folder.url)
            let events = independent.events
            for value in [1, -2, 3] { try await independent.enqueue(journalEntry("loose", value)) }
            await independent.drain()
            #expect(await backends.server.journal("loose") == [1, 3])
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
            #expect(await backends.server.journal("ordered") == [1])
            let blocked = try await strict.entries()
            #expect(blocked.map(\.state) == [.failed(.rejected(.badRequest)), .pending])
            let head = try #require(blocked.first)
            try await strict.discard(head.id)
            await strict.drain()
            #expect(await backends.server.journal("ordered") == [1, 3])
            #expect(try await strict.count() == 0)
        }
    }

    @Test("once started, the queue drains by itself: at launch, after an enqueue and when a wait ends", arguments: TransportKind.allCases)
    func drainsByItself(transport: TransportKind) async throws {
        let folder = try QueueFolder()
        defer { folder.remove() }
        try await withBackends(transport) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
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
            #expect(await backends.server.journal("auto") == [0, 1, 2])
        }
    }
}
#endif
