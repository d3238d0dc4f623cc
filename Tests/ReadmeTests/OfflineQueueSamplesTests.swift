#if OfflineQueue
import Courier
import CourierOfflineQueue
import CourierTesting
import Foundation
import Testing

@Suite("The offline queue article's code compiles and works as written")
struct OfflineQueueSamplesTests {
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let catalog = here.appending(path: "../../Sources/CourierOfflineQueue/Documentation.docc").standardized

    @Test("every Swift sample of the offline queue's catalog appears verbatim in OfflineQueueSamples.swift")
    func samplesAreCompiled() throws {
        let compiled = DocCSamplesTests.normalized(try String(contentsOf: Self.here.appending(path: "OfflineQueueSamples.swift"), encoding: .utf8))
        let articles = try FileManager.default.contentsOfDirectory(atPath: Self.catalog.path).filter { $0.hasSuffix(".md") }
        var sampleCount = 0
        for article in articles {
            let text = try String(contentsOf: Self.catalog.appending(path: article), encoding: .utf8)
            for block in text.components(separatedBy: "```swift\n").dropFirst().compactMap({ $0.components(separatedBy: "```").first }) {
                sampleCount += 1
                #expect(compiled.contains(DocCSamplesTests.normalized(block)), "\(article): block not in OfflineQueueSamples.swift:\n\(block)")
            }
        }
        #expect(sampleCount >= 3)
    }

    @Test("the article's queue stores a to-do, delivers it by itself, and the sync enqueues the waiting rename", .timeLimit(.minutes(1)))
    func articleFlow() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-article-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stub = StubTransport()
        stub.answer(.post("todos"), with: .json(Todo(id: 41, title: "milk"), status: .created))
        stub.answer(.patch("todos/41"), with: .json(Todo(id: 41, title: "oat milk")))
        let queue = try openQueue(client: Client(baseURL: "https://todo.example.com", transport: stub), folder: folder)
        let events = queue.events
        try await addTodo("milk", to: queue)
        let sync = TodoSync()
        try await sync.rename(localID: "a", to: "oat milk", queue: queue)
        var created: OfflineQueue.ServerResponse?
        for await event in events {
            if case .delivered(let entry, let response) = event, entry.kind == "createTodo" {
                #expect((response.value as? Todo)?.id == 41)
                created = response
                break
            }
        }
        try await sync.created(try #require(created), localID: "a", queue: queue)
        for await event in events {
            if case .delivered(let entry, _) = event, entry.kind == "renameTodo" { break }
        }
        await queue.stop()
        #expect(stub.requests.map(\.path) == ["/todos", "/todos/41"])
        try await review(queue)
        #expect(try await queue.count() == 0)
    }
}
#endif
