import Foundation
import HTTPTypes

/// Cookies kept in memory for one client (or the clients you give the same jar), following RFC
/// 6265: `Domain`, `Path`, `Secure`, `Expires` and `Max-Age` decide where a cookie goes and for how
/// long. Nothing is written to disk.
///
/// Courier keeps no cookies unless a client has a jar: an API client usually authenticates with
/// tokens. Give one to a backend that keeps a session in a cookie:
///
/// ```swift
/// let shop = Client(baseURL: "https://shop.example.com") {
///     $0.cookieJar = CookieJar()
/// }
/// ```
///
/// The jar behaves the same on every transport: Courier sends and stores cookies itself, on every
/// request of a call including each redirect, and URLSession's own cookie storage is never used.
/// A jar holds at most 50 cookies per domain and 1,000 in all, each at most 4 KiB, whatever a
/// server sends. Its `Mirror` lists the cookies as ``Cookie`` shows them, without their values.
public final class CookieJar: Sendable, CustomReflectable {
    private let state = LockedState<[Cookie]>([])
    private let clock: @Sendable () -> Date

    /// The most cookies kept per domain; the oldest goes first.
    static let perDomain = 50
    /// The most cookies kept in all; the oldest goes first.
    static let total = 1000

    /// Creates an empty jar.
    public convenience init() {
        self.init(clock: { Date() })
    }

    /// Creates an empty jar that reads the time from `clock` (for tests).
    init(clock: @escaping @Sendable () -> Date) {
        self.clock = clock
    }

    /// Every cookie the jar holds that has not expired.
    public var cookies: [Cookie] {
        let now = clock()
        return state.withLock { $0.filter { !$0.hasExpired(at: now) } }
    }

    /// The cookies that go with a request to `url`, most specific path first.
    /// - Parameter url: The request's URL.
    /// - Returns: The matching cookies, in the order of a `Cookie` field.
    public func cookies(for url: URL) -> [Cookie] {
        guard let host = url.host?.lowercased() else { return [] }
        let path = url.path.isEmpty ? "/" : url.path
        let secure = url.scheme?.lowercased() == "https"
        let now = clock()
        return state.withLock { cookies in
            cookies.removeAll { $0.hasExpired(at: now) }
            return cookies.filter { $0.matches(host: host, path: path, secure: secure, at: now) }
        }
        .sorted { ($0.path.count, $1.created) > ($1.path.count, $0.created) }
    }

    /// Stores the cookies of a response's `Set-Cookie` fields.
    /// - Parameters:
    ///   - fields: The response's header fields.
    ///   - url: The URL the response came from.
    public func store(from fields: HTTPFields, for url: URL) {
        let values = fields[values: .setCookie]
        guard !values.isEmpty, let host = url.host?.lowercased() else { return }
        let path = url.path.isEmpty ? "/" : url.path
        let secure = url.scheme?.lowercased() == "https"
        let now = clock()
        let received = values.compactMap {
            SetCookieParser.cookie(from: $0, host: host, path: path, secure: secure, now: now)
        }
        guard !received.isEmpty else { return }
        state.withLock { cookies in
            for var cookie in received {
                if let index = cookies.firstIndex(where: { Self.sameSlot($0, cookie) }) {
                    cookie.created = cookies[index].created
                    cookies.remove(at: index)
                }
                if !cookie.hasExpired(at: now) { cookies.append(cookie) }
            }
            Self.evict(&cookies, now: now)
        }
    }

    /// The cookies the jar holds, each without its value (see ``Cookie``).
    public var customMirror: Mirror {
        Mirror(self, children: ["cookies": cookies], displayStyle: .class)
    }

    /// Forgets every cookie.
    public func removeAll() {
        state.withLock { $0.removeAll() }
    }

    /// The `Cookie` field value for `url`, or `nil` when no cookie goes there.
    func fieldValue(for url: URL) -> String? {
        let matching = cookies(for: url)
        guard !matching.isEmpty else { return nil }
        return matching.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// Same name, domain and path: a new cookie replaces the old one (RFC 6265 §5.3 step 11).
    private static func sameSlot(_ a: Cookie, _ b: Cookie) -> Bool {
        a.name == b.name && a.domain == b.domain && a.path == b.path
    }

    /// Drops expired cookies, then the oldest past the per-domain and total limits (the array is
    /// in the order cookies were stored).
    private static func evict(_ cookies: inout [Cookie], now: Date) {
        cookies.removeAll { $0.hasExpired(at: now) }
        var perDomain: [String: Int] = [:]
        for cookie in cookies { perDomain[cookie.domain, default: 0] += 1 }
        var excess = perDomain.mapValues { max(0, $0 - Self.perDomain) }
        if excess.values.contains(where: { $0 > 0 }) {
            cookies.removeAll { cookie in
                guard let count = excess[cookie.domain], count > 0 else { return false }
                excess[cookie.domain] = count - 1
                return true
            }
        }
        if cookies.count > Self.total { cookies.removeFirst(cookies.count - Self.total) }
    }
}
