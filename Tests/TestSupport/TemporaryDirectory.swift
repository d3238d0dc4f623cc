import Foundation

/// Runs `body` with a new, empty directory, and removes the directory afterwards.
/// - Parameter body: The test, given the directory.
/// - Returns: What `body` returns.
/// - Throws: What creating the directory or `body` throws.
public func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}
