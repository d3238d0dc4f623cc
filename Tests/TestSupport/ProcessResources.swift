import Foundation

/// What this test process holds now, read from `/proc/self` on Linux: for tests that check that
/// many operations leave nothing behind. Where `/proc` is missing both read 0, so the bounds
/// hold trivially there.
public enum ProcessResources {
    /// The process's resident memory, in bytes.
    public static var residentBytes: Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return pages * 4096
    }

    /// The process's open file descriptors.
    public static var openDescriptors: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
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
