import Foundation

func format(_ value: Double, _ decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
}

/// Writes a line at once: a reader on a pipe sees every result even if the run is cut short.
func output(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
