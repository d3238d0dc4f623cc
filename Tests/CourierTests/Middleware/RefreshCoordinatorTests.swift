@testable import Courier
import Testing

@Suite("Refresh coordination: one refresh for many refusals, and never a loop")
struct RefreshCoordinatorTests {
    /// The stamp of a token handed out with generation `generation` after `failed` failed refreshes.
    private func stamp(_ generation: Int, failed: Int = 0) -> RefreshCoordinator.Stamp {
        RefreshCoordinator.Stamp(generation: generation, failedRefreshes: failed)
    }

    @Test("the first refusal starts the refresh; refusals meanwhile wait for it")
    func singleFlight() {
        var coordinator = RefreshCoordinator(signedIn: true)
        #expect(coordinator.unauthorized(used: stamp(0), canRefresh: true) == .refresh)
        for _ in 0..<49 {
            #expect(coordinator.unauthorized(used: stamp(0), canRefresh: true) == .waitForRefresh)
        }
        coordinator.refreshFinished(.renewed)
        #expect(coordinator.stamp == stamp(1))
        #expect(coordinator.unauthorized(used: stamp(0), canRefresh: true) == .replay, "a late 401 for old tokens replays")
    }

    @Test("a refusal of the renewed tokens starts one more refresh, not a loop within one request")
    func secondRefusal() {
        var coordinator = RefreshCoordinator(signedIn: true)
        _ = coordinator.unauthorized(used: stamp(0), canRefresh: true)
        coordinator.refreshFinished(.renewed)
        #expect(coordinator.unauthorized(used: stamp(1), canRefresh: true) == .refresh)
    }

    @Test("a refused refresh expires the session until the next sign-in")
    func expiry() {
        var coordinator = RefreshCoordinator(signedIn: true)
        _ = coordinator.unauthorized(used: stamp(0), canRefresh: true)
        coordinator.refreshFinished(.refused)
        #expect(coordinator.phase == .expired)
        #expect(coordinator.unauthorized(used: stamp(0), canRefresh: true) == .fail)
        coordinator.signedIn()
        #expect(coordinator.unauthorized(used: stamp(1), canRefresh: true) == .refresh)
    }

    @Test("after a transient refresh failure, 401s of requests sent before it fail instead of refreshing again")
    func transientFailureStale() {
        var coordinator = RefreshCoordinator(signedIn: true)
        _ = coordinator.unauthorized(used: stamp(0), canRefresh: true)
        coordinator.refreshFinished(.failed)
        #expect(coordinator.stamp == stamp(0, failed: 1), "no new generation, one failure counted")
        #expect(coordinator.phase == .idle)
        for _ in 0..<49 {
            #expect(coordinator.unauthorized(used: stamp(0), canRefresh: true) == .fail)
        }
    }

    @Test("after a transient refresh failure, a request sent afterwards may refresh again")
    func transientFailureFresh() {
        var coordinator = RefreshCoordinator(signedIn: true)
        _ = coordinator.unauthorized(used: stamp(0), canRefresh: true)
        coordinator.refreshFinished(.failed)
        #expect(coordinator.unauthorized(used: stamp(0, failed: 1), canRefresh: true) == .refresh)
        #expect(coordinator.unauthorized(used: stamp(0), canRefresh: true) == .waitForRefresh, "a stale 401 joins the refresh under way")
        coordinator.refreshFinished(.renewed)
        #expect(coordinator.unauthorized(used: stamp(0), canRefresh: true) == .replay, "tokens newer than a stale request's are replayed")
    }

    @Test("the end of a refresh that a sign-in superseded changes nothing")
    func supersededRefresh() {
        var coordinator = RefreshCoordinator(signedIn: true)
        _ = coordinator.unauthorized(used: stamp(0), canRefresh: true)
        coordinator.signedIn()
        coordinator.refreshFinished(.refused)
        #expect(coordinator.phase == .idle)
        #expect(coordinator.stamp == stamp(1))
    }

    @Test("without a refresh token, or signed out, a refusal is final")
    func nothingToRefreshWith() {
        var coordinator = RefreshCoordinator(signedIn: true)
        #expect(coordinator.unauthorized(used: stamp(0), canRefresh: false) == .fail)
        coordinator.signedOut()
        #expect(coordinator.unauthorized(used: stamp(1), canRefresh: true) == .fail)
    }
}
