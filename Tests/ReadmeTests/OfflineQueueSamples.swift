// The offline queue article's samples, verbatim: `OfflineQueueSamplesTests` checks that every
// Swift block of Sources/CourierOfflineQueue/Documentation.docc appears here, so each one compiles.
// Laid out as the documentation shows it, comments aligned:
// swift-format-ignore-file
#if OfflineQueue
import Courier
import CourierOfflineQueue
import Foundation

struct Todo: Codable, Sendable {
    var id: Int?
    var title: String
}

enum TodoAPI {
    static func create(_ todo: Todo) -> Request<Todo> {
        Request(.post, "todos", body: .json(todo))
    }

    static func rename(id: Int, to title: String) -> Request<Todo> {
        Request(.patch, "todos/\(id)", body: .json(["title": title]))
    }
}

func openQueue(client: Client, folder: URL) throws(CourierError) -> OfflineQueue {
    let queue = try OfflineQueue(client: client, name: "todos", directory: folder) {
        $0.ordering = .strict                      // an edit never overtakes what it depends on
        $0.maximumAttempts = 20
        $0.timeToLive = .seconds(7 * 24 * 3600)    // a week
        $0.decode(Todo.self, forKind: "createTodo")
    }
    queue.start()   // drains now, on enqueue, when the network is back, when a wait ends
    return queue
}

func addTodo(_ title: String, to queue: OfflineQueue) async throws(CourierError) {
    try await queue.enqueue(TodoAPI.create(Todo(title: title)), kind: "createTodo")
    // Stored: the app may be killed now, and the to-do still reaches the server.
}

func watch(_ queue: OfflineQueue) async {
    for await event in queue.events {
        switch event {
        case .delivered(let entry, let response):
            if let todo = response.value as? Todo { print("\(entry.kind): \(todo.title) is number \(todo.id ?? 0)") }
        case .rejected(let entry, let response):
            print("\(entry.path) was refused with \(response.status)")   // kept: retry or discard
        case .authenticationRequired:
            print("sign in again")
        default:
            break
        }
    }
}

func review(_ queue: OfflineQueue) async throws(CourierError) {
    for entry in try await queue.entries() where entry.state == .failed(.expired) {
        try await queue.retry(entry.id)   // its place and its Idempotency-Key are kept
    }
    for entry in try await queue.entries() where entry.state == .failed(.rejected(.unprocessableContent)) {
        try await queue.discard(entry.id)
    }
}

actor TodoSync {
    private var serverIDs: [String: Int] = [:]           // the app's id → the server's
    private var waitingTitles: [String: [String]] = [:]  // edits of items the server has not numbered yet

    func rename(localID: String, to title: String, queue: OfflineQueue) async throws(CourierError) {
        if let id = serverIDs[localID] {
            try await queue.enqueue(TodoAPI.rename(id: id, to: title), kind: "renameTodo")
        } else {
            waitingTitles[localID, default: []].append(title)
        }
    }

    func created(_ response: OfflineQueue.ServerResponse, localID: String, queue: OfflineQueue) async throws(CourierError) {
        guard let id = try response.decode(Todo.self).id else { return }
        serverIDs[localID] = id
        for title in waitingTitles.removeValue(forKey: localID) ?? [] {
            try await queue.enqueue(TodoAPI.rename(id: id, to: title), kind: "renameTodo")
        }
    }
}
#endif
