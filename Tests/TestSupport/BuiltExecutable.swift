import Foundation

/// An executable target of this package, built beside the test bundle by `swift build --build-tests`
/// (or `swift test`), for tests that run it as a child process.
public enum BuiltExecutable {
    /// The executable's path: next to the test bundle in the build directory.
    /// - Parameter name: The executable target's name, e.g. `courier-demo`.
    /// - Returns: Its file URL.
    /// - Throws: `CocoaError(.fileNoSuchFile)` naming the executable when it was not built.
    public static func url(named name: String) throws -> URL {
        var candidates: [URL] = []
        if let main = Bundle.main.executableURL { candidates.append(main.deletingLastPathComponent()) }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            candidates.append(bundle.bundleURL.deletingLastPathComponent())
        }
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        for folder in candidates {
            var current = folder
            for _ in 0..<4 {
                let executable = current.appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: executable.path) { return executable }
                current = current.deletingLastPathComponent()
            }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "\(name) (build it with swift build --build-tests)"])
    }
}
