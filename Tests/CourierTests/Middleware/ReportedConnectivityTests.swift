import Testing

@testable import Courier

@Suite("What a platform's path monitor reports becomes connectivity and its changes")
struct ReportedConnectivityTests {
    @Test("connected before any report; each change of connectivity is sent once, in order, and repeats are not")
    func changesOnly() async {
        let reported = ReportedConnectivity()
        #expect(reported.isConnected)
        let changes = reported.changes()
        reported.report(.satisfied)
        reported.report(.unsatisfied)
        #expect(!reported.isConnected)
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == false)
        reported.report(.unsatisfied)
        reported.report(.requiresConnection)
        #expect(reported.isConnected)
        #expect(await iterator.next() == true)
    }
}
