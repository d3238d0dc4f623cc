import Courier
import Foundation
import ReferenceServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("URLSession transports made and dropped leave no sessions behind", .timingSensitive)
struct SessionLifetimeTests {
    @Test("a hundred transports over the app's session, each used once and dropped, keep no connections open")
    func manyTransportsDropped() async throws {
        let server = try await ReferenceServer.start()
        let appSession = URLSession(configuration: .ephemeral)
        do {
            let before = ProcessResources.openDescriptors
            for index in 0..<100 {
                let client = Client(baseURL: BaseURL(server.baseURL), transport: .urlSession(appSession))
                _ = try await client.send(Request<JSONValue>(.get, "echo/\(index)"))
            }
            // Each session left valid would keep its idle connection: 100 descriptors and more.
            // Other tests in the process open some of their own, hence the generous bound.
            #expect(await eventually { ProcessResources.openDescriptors - before < 60 })
        } catch {
            appSession.invalidateAndCancel()
            await server.stop()
            throw error
        }
        appSession.invalidateAndCancel()
        await server.stop()
    }
}
