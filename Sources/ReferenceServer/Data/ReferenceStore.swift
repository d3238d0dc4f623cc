import Foundation

/// The reference backends' mutable state: friendships, sessions, analytics events, and counters
/// that tests read.
actor ReferenceStore {
    struct Session: Sendable {
        var userID: Int
        var expiresAt: Date
        var refreshToken: String
    }

    enum TokenCheck: Sendable {
        case valid(userID: Int, expiresAt: Date)
        case expired
        case unknown
    }

    private var friendships = SampleData.friendships
    private var sessions: [String: Session] = [:]
    private var refreshTokens: [String: Int] = [:]
    private(set) var analyticsEventCount = 0
    private(set) var analyticsBatchCount = 0
    private(set) var refreshCount = 0
    private(set) var friendAdditionCount = 0
    let tokenLifetime: Duration
    let refreshedTokenLifetime: Duration

    init(tokenLifetime: Duration, refreshedTokenLifetime: Duration) {
        self.tokenLifetime = tokenLifetime
        self.refreshedTokenLifetime = refreshedTokenLifetime
    }

    // MARK: Authentication

    func authenticate(email: String, password: String) -> (token: String, session: Session)? {
        guard let user = SampleData.users.first(where: { $0.email?.lowercased() == email.lowercased() }) else {
            return nil
        }
        let expected = user.email == SampleData.demoEmail ? SampleData.demoPassword : SampleData.defaultPassword
        guard password == expected else { return nil }
        return startSession(userID: user.id, lifetime: tokenLifetime)
    }

    func refresh(refreshToken: String) -> (token: String, session: Session)? {
        guard let userID = refreshTokens.removeValue(forKey: refreshToken) else { return nil }
        refreshCount += 1
        return startSession(userID: userID, lifetime: refreshedTokenLifetime)
    }

    func check(token: String) -> TokenCheck {
        guard let session = sessions[token] else { return .unknown }
        guard session.expiresAt > Date() else { return .expired }
        return .valid(userID: session.userID, expiresAt: session.expiresAt)
    }

    func logout(token: String) -> Bool {
        guard let session = sessions.removeValue(forKey: token) else { return false }
        refreshTokens[session.refreshToken] = nil
        return true
    }

    private func startSession(userID: Int, lifetime: Duration) -> (token: String, session: Session) {
        let token = Self.randomToken()
        let refreshToken = Self.randomToken()
        let seconds = Double(lifetime.components.seconds) + Double(lifetime.components.attoseconds) / 1e18
        let session = Session(userID: userID, expiresAt: Date().addingTimeInterval(seconds), refreshToken: refreshToken)
        sessions[token] = session
        refreshTokens[refreshToken] = userID
        return (token, session)
    }

    private static func randomToken() -> String {
        (UUID().uuidString + UUID().uuidString).replacingOccurrences(of: "-", with: "").lowercased()
    }

    // MARK: Social

    enum FriendChange: Sendable {
        case done(WireUser)
        case unknownUser(Int)
        case alreadyFriends
        case notFriends
    }

    func friends(of userID: Int) -> [WireUser]? {
        guard let ids = friendships[userID] else { return nil }
        return ids.compactMap { id in SampleData.users.first { $0.id == id } }
    }

    func addFriend(_ friendID: Int, to userID: Int) -> FriendChange {
        guard friendships[userID] != nil else { return .unknownUser(userID) }
        guard let friend = SampleData.users.first(where: { $0.id == friendID }) else { return .unknownUser(friendID) }
        guard friendships[userID]?.contains(friendID) == false else { return .alreadyFriends }
        friendships[userID]?.append(friendID)
        friendAdditionCount += 1
        return .done(friend)
    }

    func removeFriend(_ friendID: Int, from userID: Int) -> FriendChange {
        guard friendships[userID] != nil else { return .unknownUser(userID) }
        guard let index = friendships[userID]?.firstIndex(of: friendID),
            let friend = SampleData.users.first(where: { $0.id == friendID })
        else { return .notFriends }
        friendships[userID]?.remove(at: index)
        return .done(friend)
    }

    // MARK: Analytics

    func record(events count: Int) -> Int {
        analyticsEventCount += count
        analyticsBatchCount += 1
        return analyticsEventCount
    }
}
