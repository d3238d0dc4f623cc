import Foundation
import TestSupport
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("A URLSession transport invalidates the sessions it made when its last copy goes, and only those")
struct OwnedSessionsTests {
    @Test("a transport over the app's session, dropped with its copies, invalidates the session it made, which lets go of its delegate")
    func appSessionTransportReleases() async throws {
        let appSession = URLSession(configuration: .ephemeral)
        defer { appSession.invalidateAndCancel() }
        weak var delegate: SessionDelegate?
        // Held here, so that only invalidation (never deallocation) can break its link to the delegate.
        let made: URLSession
        do {
            let transport = SessionTransport(session: appSession)
            let copy = transport
            made = copy.dataSession
            delegate = copy.delegate
            #expect(made !== appSession)
        }
        #expect(await eventually { made.delegate == nil })
        #expect(await eventually { delegate == nil })
    }

    @Test("a transport with a proxy invalidates both sessions it made")
    func proxySessionsInvalidated() async throws {
        guard !SessionTransport.ignoresProxySettings else { return }
        let made: [URLSession]
        do {
            let transport = try SessionTransport(clientIdentity: nil, proxy: .socks5(host: "127.0.0.1", port: 1080))
            made = [transport.dataSession, transport.session]
        }
        #expect(await eventually { made.allSatisfy { $0.delegate == nil } })
    }

    @Test("transports with a trust, made and dropped, release their delegates")
    func trustTransportsRelease() async throws {
        let delegates = LockedBox<[WeakDelegate]>([])
        for _ in 0..<20 {
            let transport = try SessionTransport(trust: ServerTrust())
            delegates.append(WeakDelegate(transport.delegate))
        }
        #expect(await eventually { delegates.all.allSatisfy { $0.delegate == nil } })
    }

    @Test("the shared session stays valid: a transport over it owns no session")
    func sharedSessionNotOwned() async throws {
        let shared = SessionTransport()
        #expect(shared.ownedSessions == nil)
        #expect(shared.dataSession === URLSession.courierShared)
        let made: URLSession
        do { made = try SessionTransport(session: .courierShared, trust: ServerTrust()).dataSession }
        #expect(await eventually { made.delegate == nil })
        #expect(URLSession.courierShared.delegate is SessionDelegate)
    }

    /// A delegate held weakly, to see it go.
    // @unchecked: `delegate` is written once, in `init`; the weak load is atomic.
    final class WeakDelegate: @unchecked Sendable {
        weak var delegate: SessionDelegate?
        init(_ delegate: SessionDelegate) { self.delegate = delegate }
    }
}
