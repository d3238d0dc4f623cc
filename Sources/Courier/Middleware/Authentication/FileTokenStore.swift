import Foundation

/// Keeps tokens in a JSON file that only its owner can read (permissions 0600), replaced
/// atomically on every save so a crash never leaves half a file.
///
/// ```swift
/// let store = FileTokenStore(url: supportDirectory.appending(path: "tokens.json"))
/// ```
/// For servers and command-line tools; on Apple platforms prefer `KeychainTokenStore`.
public struct FileTokenStore: TokenStore {
    /// The file.
    public let url: URL

    /// Creates a store for a file; the file is created on the first save.
    /// - Parameter url: A file URL in a directory that exists.
    public init(url: URL) {
        self.url = url
    }

    public func load() throws -> AuthTokens? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(AuthTokens.self, from: Data(contentsOf: url))
    }

    public func save(_ tokens: AuthTokens?) throws {
        guard let tokens else {
            if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
            return
        }
        let data = try JSONEncoder().encode(tokens)
        // The temporary file is created with 0600 already, so the tokens are never readable by
        // others, not even for an instant; rename(2) then swaps it in atomically.
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        guard
            FileManager.default.createFile(
                atPath: temporary.path,
                contents: data,
                attributes: [.posixPermissions: 0o600]
            )
        else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }
}
