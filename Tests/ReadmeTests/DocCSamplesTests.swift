import Courier
import Foundation
import Testing

@Suite("The DocC catalog's code compiles as written")
struct DocCSamplesTests {
    /// The catalog's articles, and the compiled files their samples must appear in.
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let catalog = here.appending(path: "../../Sources/Courier/Documentation.docc").standardized

    /// Lines without their indentation and trailing spaces, so a sample may sit inside a function.
    static func normalized(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: "\n")
            .trimmingCharacters(in: .newlines)
    }

    @Test("every Swift sample of every article appears verbatim in DocCSamples.swift or ReadmeTutorial.swift")
    func samplesAreCompiled() throws {
        let compiled = try ["DocCSamples.swift", "ReadmeTutorial.swift"]
            .map { try String(contentsOf: Self.here.appending(path: $0), encoding: .utf8) }
            .map(Self.normalized)
        let articles = try FileManager.default.contentsOfDirectory(atPath: Self.catalog.path).filter { $0.hasSuffix(".md") }
        #expect(articles.count >= 9)
        var sampleCount = 0
        for article in articles {
            let text = try String(contentsOf: Self.catalog.appending(path: article), encoding: .utf8)
            let blocks = text.components(separatedBy: "```swift\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
            for block in blocks {
                sampleCount += 1
                let sample = Self.normalized(block)
                #expect(compiled.contains { $0.contains(sample) }, "\(article): block not in DocCSamples.swift:\n\(block)")
            }
        }
        #expect(sampleCount >= 9)
    }

    @Test("the samples in the doc comments of Middleware and AuthenticationScheme appear in DocCSamples.swift")
    func docCommentSamplesAreCompiled() throws {
        let compiled = Self.normalized(try String(contentsOf: Self.here.appending(path: "DocCSamples.swift"), encoding: .utf8))
        let sources = Self.here.appending(path: "../../Sources/Courier/Middleware").standardized
        for file in ["Middleware.swift", "Authentication/AuthenticationScheme.swift"] {
            let comment = try String(contentsOf: sources.appending(path: file), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
                .compactMap { line -> String? in
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    return trimmed.hasPrefix("///") ? String(trimmed.dropFirst(3)) : nil
                }
                .joined(separator: "\n")
            let blocks = comment.components(separatedBy: "```swift\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
            let last = try #require(blocks.last, "\(file) has no Swift sample")
            #expect(compiled.contains(Self.normalized(last)), "\(file): sample not in DocCSamples.swift:\n\(last)")
        }
    }

    @Test("the encoding sample's request target is what the article says")
    func searchTarget() throws {
        let client = Client(baseURL: "https://social.example.com/api/v1")
        #expect(try inspectSearch(client) == "/api/v1/posts/search?q=tom%20%26%20jerry&tags=a&tags=b&filter%5Byear%5D=2026")
    }
}
