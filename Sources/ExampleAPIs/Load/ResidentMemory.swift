import Foundation

#if canImport(Darwin)
import Darwin
#endif

/// The process's resident memory: what the soak test, `courier-bench` and `courier-demo upload`
/// compare before and after load, and what tests bound. Read from `/proc/self/status` on Linux;
/// on Apple platforms from the task's basic info (now) and `getrusage` (the peak); 0 where neither
/// is available.
package enum ResidentMemory {
    /// Resident memory now, in MiB.
    package static func currentMebibytes() -> Double {
        Double(currentBytes()) / 1_048_576
    }

    /// Resident memory now, in bytes.
    package static func currentBytes() -> Int {
        #if canImport(Darwin)
        var info = mach_task_basic_info()
        var count = mach_msg_type_number_t(MemoryLayout<mach_task_basic_info>.size / MemoryLayout<integer_t>.size)
        let status = withUnsafeMutablePointer(to: &info) { pointer in
            pointer.withMemoryRebound(to: integer_t.self, capacity: Int(count)) { task_info(task, task_flavor_t(MACH_TASK_BASIC_INFO), $0, &count) }
        }
        return status == KERN_SUCCESS ? Int(info.resident_size) : 0
        #else
        return statusKibibytes("VmRSS:") * 1024
        #endif
    }

    /// Peak resident memory since start or the last ``resetPeak()``, in MiB.
    package static func peakMebibytes() -> Double {
        #if canImport(Darwin)
        // `ru_maxrss` counts bytes on Darwin, since the process started.
        var usage = rusage()
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
        return Double(usage.ru_maxrss) / 1_048_576
        #else
        return Double(statusKibibytes("VmHWM:")) / 1024
        #endif
    }

    /// Starts the peak over from the current resident memory (Linux: `clear_refs` value 5; Apple
    /// platforms keep the peak since the process started).
    package static func resetPeak() {
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
    }

    #if canImport(Darwin)
    /// This task's port, asked for once.
    private static let task: mach_port_t = task_self_trap()
    #endif

    private static func statusKibibytes(_ field: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
            let kibibytes = line.split(separator: " ").compactMap({ Int($0) }).first
        else { return 0 }
        return kibibytes
    }
}
