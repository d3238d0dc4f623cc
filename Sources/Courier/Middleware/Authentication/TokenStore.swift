/// Where an ``AuthenticationSession`` keeps its tokens between launches.
///
/// Courier ships ``InMemoryTokenStore`` (nothing persisted), ``FileTokenStore`` (a file readable by
/// the owner only) and, on Apple platforms, `KeychainTokenStore`.
public protocol TokenStore: Sendable {
    /// The stored tokens, or `nil` when there are none.
    /// - Throws: When the store cannot be read.
    func load() throws -> AuthTokens?
    /// Replaces the stored tokens; `nil` deletes them.
    /// - Throws: When the store cannot be written.
    func save(_ tokens: AuthTokens?) throws
}

/// Keeps tokens in memory only: the user signs in again after every launch.
public final class InMemoryTokenStore: TokenStore, CustomReflectable {
    private let tokens: LockedState<AuthTokens?>

    /// Creates a store, optionally holding tokens already.
    /// - Parameter tokens: The initial tokens.
    public init(_ tokens: AuthTokens? = nil) {
        self.tokens = LockedState(tokens)
    }

    public func load() -> AuthTokens? {
        tokens.withLock { $0 }
    }

    public func save(_ tokens: AuthTokens?) {
        self.tokens.withLock { $0 = tokens }
    }

    /// The tokens as ``AuthTokens`` shows them: never the tokens themselves.
    public var customMirror: Mirror {
        Mirror(self, children: ["tokens": load() as Any], displayStyle: .class)
    }
}
