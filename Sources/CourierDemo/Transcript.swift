import Foundation

/// Prints the demo's transcript line by line (flushed at once, so a reader on a pipe sees each
/// step as it happens) and remembers which steps did not behave as expected.
final class Transcript: @unchecked Sendable {
    // @unchecked: used from one task at a time; the demo's steps run in sequence.
    private(set) var failures: [String] = []

    func heading(_ text: String) {
        write("\n\(text)")
    }

    func line(_ text: String) {
        write("  \(text)")
    }

    /// Records a step's outcome: `✓` when it matched the expectation, `✗` (and a failure) otherwise.
    func check(_ passed: Bool, _ text: String) {
        write("  \(passed ? "✓" : "✗") \(text)")
        if !passed { failures.append(text) }
    }

    func write(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
