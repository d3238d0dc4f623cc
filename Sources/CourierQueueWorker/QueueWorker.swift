import Courier
#if AsyncHTTPClient
import CourierAsyncHTTPClient
#endif
#if OfflineQueue
import CourierOfflineQueue
#endif
import Foundation

/// `courier-queue-worker drain DIRECTORY NAME BASE_URL [urlsession|asynchttpclient]`: opens the
/// offline queue NAME in DIRECTORY, drains it to the server at BASE_URL, writes `delivered` on a
/// line of its own for each delivered entry as it happens, and exits 0 once the queue is empty
/// (1 when it is not).
///
/// `courier-queue-worker enqueue DIRECTORY NAME BASE_URL COUNT JOURNAL`: enqueues COUNT entries
/// `POST journal/JOURNAL {"value": n}`, n from 0, and writes `enqueued` on a line of its own as
/// each `enqueue` returns.
///
/// Not a product: the offline queue's crash tests run it and kill it with SIGKILL mid-drain.
@main
enum QueueWorker {
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        let values = Array(arguments)
        #if OfflineQueue
        if values.count >= 4, values[0] == "drain" {
            await drain(directory: URL(fileURLWithPath: values[1]), name: values[2], baseURL: values[3], transport: values.count > 4 ? values[4] : "urlsession")
        } else if values.count == 6, values[0] == "enqueue", let count = Int(values[4]) {
            await enqueue(directory: URL(fileURLWithPath: values[1]), name: values[2], baseURL: values[3], count: count, journal: values[5])
        } else {
            fail(
                "usage: courier-queue-worker drain DIRECTORY NAME BASE_URL [urlsession|asynchttpclient]\n"
                    + "       courier-queue-worker enqueue DIRECTORY NAME BASE_URL COUNT JOURNAL")
        }
        #else
        fail("courier-queue-worker needs the package trait OfflineQueue.")
        #endif
    }

    #if OfflineQueue
    static func drain(directory: URL, name: String, baseURL: String, transport transportName: String) async {
        let client = Client(baseURL: BaseURL(baseURL), transport: transport(named: transportName))
        do {
            let queue = try OfflineQueue(client: client, name: name, directory: directory) {
                $0.backoff = Backoff(base: .milliseconds(10), maximum: .milliseconds(100))
                $0.maximumAttempts = 1000
            }
            let events = queue.events
            let reporter = Task {
                for await event in events {
                    if case .delivered = event { write("delivered") }
                }
            }
            // Bounded: a server that stays away ends the run with entries left.
            for _ in 0..<200 {
                await queue.drain()
                if try await queue.count() == 0 { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            reporter.cancel()
            let left = try await queue.count()
            write("remaining \(left)")
            exit(left == 0 ? 0 : 1)
        } catch {
            fail("courier-queue-worker: \(error.localizedDescription)")
        }
    }
    static func enqueue(directory: URL, name: String, baseURL: String, count: Int, journal: String) async {
        do {
            let queue = try OfflineQueue(client: Client(baseURL: BaseURL(baseURL)), name: name, directory: directory)
            for value in 0..<count {
                try await queue.enqueue(Request<Data>(.post, "journal/\(journal)", body: .json(["value": value])))
                write("enqueued")
            }
            exit(0)
        } catch {
            fail("courier-queue-worker: \(error.localizedDescription)")
        }
    }
    #endif

    static func transport(named name: String) -> any Transport {
        #if AsyncHTTPClient
        if name == "asynchttpclient" { return .asyncHTTPClient() }
        #endif
        return .urlSession()
    }

    /// One line on standard output at once: a process killed next loses nothing it wrote.
    static func write(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(2)
    }
}
