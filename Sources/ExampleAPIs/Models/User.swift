/// A member of the social network. Only `id` is always present: users may hide their e-mail, and
/// some never set a name.
public struct User: Codable, Sendable, Hashable, Identifiable {
    /// The user's id.
    public var id: Int
    /// The e-mail address, when the user shares it.
    public var email: String?
    /// The display name, when the user set one.
    public var name: String?

    /// Creates a user.
    public init(id: Int, email: String? = nil, name: String? = nil) {
        self.id = id
        self.email = email
        self.name = name
    }

    /// The name to show: the display name, else the e-mail, else `User <id>`.
    public var displayName: String {
        name ?? email ?? "User \(id)"
    }
}
