@testable import Courier
import Testing

@Suite("Where no monitor can see the network, requests go out")
struct AssumedConnectivityTests {
    @Test("the assumed monitor says connected and reports no change")
    func assumed() async {
        let monitor: any ConnectivityMonitor = AssumedConnectivity()
        #expect(await monitor.isConnected())
        var changes = monitor.changes().makeAsyncIterator()
        let reader = Task { await changes.next() }
        reader.cancel()
        #expect(await reader.value == nil)
    }
}
