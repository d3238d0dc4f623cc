import Foundation

/// The system's `curl` command, for what it says of the libcurl beside it: swift-corelibs-foundation's
/// URLSession runs on the system's libcurl, so its protocols are what URLSession can speak on Linux.
///
/// ```swift
/// if CurlCommand.protocols?.contains("ws") == false { /* no WebSockets through URLSession here */ }
/// ```
public enum CurlCommand {
    /// Where the command is.
    public static let path = "/usr/bin/curl"

    /// The protocols of `curl --version`'s `Protocols:` line (`http`, `https`, `ws`, `wss`, …), or
    /// `nil` when the command is missing or prints no such line.
    public static var protocols: Set<String>? {
        guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--version"]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("Protocols:") }
        return line.map { Set($0.dropFirst("Protocols:".count).split(separator: " ").map(String.init)) }
    }
}
