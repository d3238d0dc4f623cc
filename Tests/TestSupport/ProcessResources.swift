import ExampleAPIs
import Foundation

/// What this test process holds now: for tests that check that many operations leave nothing
/// behind. Read from `/proc/self` on Linux, from the task's basic info and `/dev/fd` on Apple
/// platforms.
public enum ProcessResources {
    /// The process's resident memory, in bytes.
    public static var residentBytes: Int {
        ResidentMemory.currentBytes()
    }

    /// The process's open file descriptors.
    public static var openDescriptors: Int {
        #if canImport(Darwin)
        (try? FileManager.default.contentsOfDirectory(atPath: "/dev/fd").count) ?? 0
        #else
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        #endif
    }
}

extension ProcessResources {
    /// The bytes waiting in the send queues of this machine's TCP connections to 127.0.0.1:`port`
    /// (`/proc/net/tcp`'s `tx_queue`): more than 0 while a peer that does not read holds up a
    /// write. 0 where `/proc` is missing.
    /// - Parameter port: The peer's port.
    /// - Returns: The queued bytes, over every such connection.
    public static func queuedBytes(toPort port: Int) -> Int {
        guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return 0 }
        let peer = "0100007F:" + String(format: "%04X", port)
        return table.split(separator: "\n").dropFirst().reduce(0) { total, line in
            let fields = line.split(separator: " ")
            guard fields.count > 4, fields[2] == peer else { return total }
            let queues = fields[4].split(separator: ":")
            return total + (queues.first.flatMap { Int($0, radix: 16) } ?? 0)
        }
    }
}
