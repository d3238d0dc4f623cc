import Foundation

/// The process's resident memory, from `/proc/self/status` on Linux (0 where unavailable): what
/// the soak test and `courier-bench` compare before and after load.
package enum ResidentMemory {
    /// Resident memory now, in MiB.
    package static func currentMebibytes() -> Double {
        statusMebibytes("VmRSS:")
    }

    /// Peak resident memory since start or the last ``resetPeak()``, in MiB.
    package static func peakMebibytes() -> Double {
        statusMebibytes("VmHWM:")
    }

    /// Starts the peak over from the current resident memory (Linux: `clear_refs` value 5).
    package static func resetPeak() {
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
    }

    private static func statusMebibytes(_ field: String) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
            let kilobytes = line.split(separator: " ").compactMap({ Double($0) }).first
        else { return 0 }
        return kilobytes / 1024
    }
}
