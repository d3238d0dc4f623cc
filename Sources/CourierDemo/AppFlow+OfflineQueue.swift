#if OfflineQueue
import Courier
import CourierOfflineQueue
import ExampleAPIs
import Foundation
import ReferenceServer

extension AppFlow {
    /// Three friend additions made while the server is down, kept in the offline queue's file
    /// across a restart, and applied once each when the server comes up.
    func showOfflineQueue() async {
        transcript.heading("Offline queue: changes made offline reach the server once, after a restart")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-demo-queue-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let port = try await ReferenceServer.unusedPort()
            let environment = ServerEnvironment.custom(BaseURL("http://127.0.0.1:\(port)"))
            let auth = AuthService(client: .auth(environment: environment, transport: transport))
            let social = Client.social(environment: environment, session: auth.session, transport: transport)
            let friends = [2, 3, 4]
            do {
                let queue = try OfflineQueue(client: social, name: "friends", directory: folder)
                for friend in friends { try await queue.enqueue(SocialAPI.addFriend(friend, to: 1), kind: "addFriend") }
                await queue.drain()
                let waiting = try await queue.count()
                transcript.check(waiting == 3, "server stopped: 3 friend additions queued in friends.sqlite; a drain kept them (\(waiting) waiting)")
            }
            let reopened = try OfflineQueue(client: social, name: "friends", directory: folder) {
                $0.decode(User.self, forKind: "addFriend")
            }
            let keys = try await reopened.entries().map { String($0.idempotencyKey.prefix(8)) }
            transcript.check(keys.count == 3, "queue reopened from its file, as after a restart: 3 entries, Idempotency-Keys \(keys.joined(separator: ", "))…")

            var options = ReferenceServer.Options()
            options.port = port
            let server = try await ReferenceServer.start(options)
            try await auth.authenticate(email: credentials.email, password: credentials.password)
            let events = reopened.events
            // Drains by itself: now, and again when the head entry's backoff after the refused
            // connection ends (a second at most).
            reopened.start()
            let reader = Task {
                var added: [String] = []
                for await event in events {
                    if case .delivered(_, let response) = event, let user = response.value as? User { added.append(user.name ?? "user \(user.id)") }
                    if added.count == friends.count { break }
                }
                return added
            }
            let watchdog = Task {
                try? await Task.sleep(for: .seconds(15))
                reader.cancel()
            }
            let added = await reader.value
            watchdog.cancel()
            await reopened.stop()
            let applied = await server.friendAdditionCount
            let left = try await reopened.count()
            await server.stop()
            transcript.check(
                applied == 3 && left == 0 && added.count == 3,
                "server started, the queue drained by itself: the server applied \(applied) additions, each once (\(added.joined(separator: ", "))); \(left) left"
            )
        } catch {
            transcript.check(false, "the offline queue failed: \(error.localizedDescription)")
        }
    }
}
#endif
