@testable import Courier
import Testing

@Suite("Refresh coordination: one refresh for many refusals, and never a loop")
struct RefreshCoordinatorTests {
    @Test("the first refusal starts the refresh; refusals meanwhile wait for it")
    func singleFlight() {
        var coordinator = RefreshCoordinator(signedIn: true)
        #expect(coordinator.unauthorized(used: 0, canRefresh: true) == .refresh)
        for _ in 0..<49 {
            #expect(coordinator.unauthorized(used: 0, canRefresh: true) == .waitForRefresh)
        }
        coordinator.refreshFinished(.renewed)
        #expect(coordinator.generation == 1)
        #expect(coordinator.unauthorized(used: 0, canRefresh: true) == .replay, "a late 401 for old tokens replays")
    }

    @Test("a refusal of the renewed tokens starts one more refresh, not a loop within one request")
    func secondRefusal() {
        var coordinator = RefreshCoordinator(signedIn: true)
        _ = coordinator.unauthorized(used: 0, canRefresh: true)
        coordinator.refreshFinished(.renewed)
        #expect(coordinator.unauthorized(used: 1, canRefresh: true) == .refresh)
    }

    @Test("a refused refresh expires the session until the next sign-in")
    func expiry() {
        var coordinator = RefreshCoordinator(signedIn: true)
        _ = coordinator.unauthorized(used: 0, canRefresh: true)
        coordinator.refreshFinished(.refused)
        #expect(coordinator.phase == .expired)
        #expect(coordinator.unauthorized(used: 0, canRefresh: true) == .fail)
        coordinator.signedIn()
        #expect(coordinator.unauthorized(used: 2, canRefresh: true) == .refresh)
    }

    @Test("a transient refresh failure fails the waiting requests but lets a later one try again")
    func transientFailure() {
        var coordinator = RefreshCoordinator(signedIn: true)
        _ = coordinator.unauthorized(used: 0, canRefresh: true)
        coordinator.refreshFinished(.failed)
        #expect(coordinator.generation == 0)
        #expect(coordinator.unauthorized(used: 0, canRefresh: true) == .refresh)
    }

    @Test("without a refresh token, or signed out, a refusal is final")
    func nothingToRefreshWith() {
        var coordinator = RefreshCoordinator(signedIn: true)
        #expect(coordinator.unauthorized(used: 0, canRefresh: false) == .fail)
        coordinator.signedOut()
        #expect(coordinator.unauthorized(used: 1, canRefresh: true) == .fail)
    }
}
