import Testing

@testable import Courier

@Suite("What NWPathMonitor's path status means for requests")
struct PathStatusTests {
    @Test("only an unsatisfied path is offline: a path that requires a connection lets requests bring it up")
    func offlineMeansUnsatisfied() {
        #expect(PathStatus.unsatisfied.isConnected == false)
        #expect(PathStatus.requiresConnection.isConnected)
        #expect(PathStatus.satisfied.isConnected)
    }
}
