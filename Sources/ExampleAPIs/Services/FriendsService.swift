import Courier

/// Friends of a user, in the app's words: screens call `load(for:)` and never see a request.
///
/// ```swift
/// let friends = FriendsService(client: .social(environment: .production))
/// let list = try await friends.load(for: currentUser)
/// ```
public struct FriendsService: Sendable {
    /// The social backend's client.
    public let client: Client

    /// Creates the service.
    /// - Parameter client: The social backend's client.
    public init(client: Client) {
        self.client = client
    }

    /// The friends of `user`.
    /// - Throws: ``CourierError``; `.notFound` for an unknown user.
    public func load(for user: User) async throws(CourierError) -> [User] {
        try await client.send(SocialAPI.friends(of: user.id))
    }

    /// The friends of `user`, reported on the main actor.
    /// - Returns: A handle that cancels the request.
    @discardableResult
    public func load(
        for user: User,
        completion: @escaping @MainActor @Sendable (Result<[User], CourierError>) -> Void
    ) -> RequestHandle {
        client.send(SocialAPI.friends(of: user.id), completion: completion)
    }

    /// Makes `friend` a friend of `user`.
    /// - Returns: The friend as the server knows them.
    /// - Throws: ``CourierError``; `.clientError` (409) when they are friends already.
    @discardableResult
    public func add(_ friend: User, to user: User) async throws(CourierError) -> User {
        try await client.send(SocialAPI.addFriend(friend.id, to: user.id))
    }

    /// Ends the friendship of `friend` and `user`.
    /// - Throws: ``CourierError``; `.notFound` when they are not friends.
    public func remove(_ friend: User, from user: User) async throws(CourierError) {
        try await client.send(SocialAPI.removeFriend(friend.id, from: user.id))
    }
}
