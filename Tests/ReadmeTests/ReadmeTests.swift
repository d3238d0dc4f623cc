import Courier
import Foundation
import ReferenceServer
import Testing

@Suite("The README's code works as written")
struct ReadmeTests {
    @Test("every Swift sample of the README appears verbatim in ReadmeTutorial.swift")
    func samplesAreCompiled() throws {
        let here = URL(fileURLWithPath: #filePath)
        let readme = try String(contentsOf: here.appending(path: "../../../README.md").standardized, encoding: .utf8)
        let tutorial = try String(contentsOf: here.deletingLastPathComponent().appending(path: "ReadmeTutorial.swift"), encoding: .utf8)
        let blocks = readme.components(separatedBy: "```swift\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
        #expect(blocks.count >= 5)
        for block in blocks where !block.contains("Package(") && !block.contains(".package(") {
            #expect(tutorial.contains(block.trimmingCharacters(in: .newlines)), "README block not in ReadmeTutorial.swift:\n\(block)")
        }
    }

    @Test("the tutorial's client, service and calls run against the reference server")
    func tutorialRuns() async throws {
        let server = try await ReferenceServer.start()
        let movies = MovieService(client: makeMovieClient(environment: .custom(BaseURL(server.baseURL)), apiKey: server.movieAPIKey))
        let titles = await popularTitles(movies)
        #expect(titles.count == 20)
        let nowPlaying = try await oneOffCall(movies.client)
        #expect(nowPlaying["page"]?.intValue == 1)
        let page = await withCheckedContinuation { continuation in
            Task { @MainActor in
                movies.popular(page: 2) { continuation.resume(returning: $0) }
            }
        }
        #expect(try page.get().page == 2)
        await cancelling(movies)
        let offline = MovieService(client: makeMovieClient(environment: .custom("http://127.0.0.1:\(try await ReferenceServer.unusedPort())"), apiKey: "k"))
        #expect(await popularTitles(offline).isEmpty)

        let files = Client(baseURL: BaseURL(server.baseURL))
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("courier-readme-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: destination) }
        #expect(try await saveTrailer(files, to: destination) == 5_000_000)
        try await uploadRecording(files, from: destination)
        #expect(try await countBytes(files) == 1_000_000)
        #expect(try await liveTicks(files) == [1, 2, 3, 4, 5])
        let allTitles = try await everyPopularTitle(movies.client)
        #expect(allTitles.count == 200 && Set(allTitles).count > 1)
        let cached = makeCachedMovieClient(environment: .custom(BaseURL(server.baseURL)), apiKey: server.movieAPIKey)
        #expect(try await popularThreeTimes(cached) == [.network, .cache, .revalidated])
        await server.stop()
    }
}
