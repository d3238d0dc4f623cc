import Courier
import ExampleAPIs
import Foundation
import ReferenceServer

/// `UTF8JSONDecoder` against `JSONDecoder` on the example payloads, in one run: rounds alternate
/// between the two so drift cancels out, and each side's best round counts.
enum DecoderBenchmark {
    struct Payload {
        var name: String
        var bytes: Data
        var decodeUTF8: (Data) throws -> Void
        var decodeFoundation: (Data) throws -> Void
    }

    /// The server's benchmark record (180 bytes), 100 of them (18 KB), a 1 MB page of movies
    /// in TheMovieDB's snake_case, and payloads shaped as twitter.json (read with the snake-case
    /// key strategy, and with its members named as the models are), citm_catalog.json and canada.json.
    static func payloads() -> [Payload] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Byte for byte what `/bench/small` and `/bench/list` serve.
        let record = (try? encoder.encode(BenchRoutes.record(1))) ?? Data()
        let list = (try? encoder.encode((0..<100).map(BenchRoutes.record))) ?? Data()
        let plain = UTF8JSONDecoder()
        let foundation = JSONDecoder()
        var snake = UTF8JSONDecoder()
        snake.keyDecodingStrategy = .convertFromSnakeCase
        let foundationSnake = JSONDecoder()
        foundationSnake.keyDecodingStrategy = .convertFromSnakeCase
        return [
            Payload(
                name: "user_182b", bytes: record,
                decodeUTF8: { _ = try plain.decode(BenchRecord.self, from: $0) },
                decodeFoundation: { _ = try foundation.decode(BenchRecord.self, from: $0) }),
            Payload(
                name: "list_100_records", bytes: list,
                decodeUTF8: { _ = try plain.decode([BenchRecord].self, from: $0) },
                decodeFoundation: { _ = try foundation.decode([BenchRecord].self, from: $0) }),
            Payload(
                name: "movie_page_1mb", bytes: moviePage(bytes: 1_000_000),
                decodeUTF8: { _ = try snake.decode(MovieApiResponse.self, from: $0) },
                decodeFoundation: { _ = try foundationSnake.decode(MovieApiResponse.self, from: $0) }),
            // Generated in the shapes of nativejson-benchmark's corpus (see each type).
            Payload(
                name: "corpus_twitter", bytes: TwitterCorpus.make(),
                decodeUTF8: { _ = try snake.decode(TwitterCorpus.SearchResponse.self, from: $0) },
                decodeFoundation: { _ = try foundationSnake.decode(TwitterCorpus.SearchResponse.self, from: $0) }),
            Payload(
                name: "corpus_twitter_plain", bytes: TwitterCorpus.make(camelCaseKeys: true),
                decodeUTF8: { _ = try plain.decode(TwitterCorpus.SearchResponse.self, from: $0) },
                decodeFoundation: { _ = try foundation.decode(TwitterCorpus.SearchResponse.self, from: $0) }),
            Payload(
                name: "corpus_citm_catalog", bytes: CatalogCorpus.make(),
                decodeUTF8: { _ = try plain.decode(CatalogCorpus.Catalog.self, from: $0) },
                decodeFoundation: { _ = try foundation.decode(CatalogCorpus.Catalog.self, from: $0) }),
            Payload(
                name: "corpus_canada", bytes: CanadaCorpus.make(),
                decodeUTF8: { _ = try plain.decode(CanadaCorpus.FeatureCollection.self, from: $0) },
                decodeFoundation: { _ = try foundation.decode(CanadaCorpus.FeatureCollection.self, from: $0) }),
        ]
    }

    /// A movie list page of about `bytes` bytes, as TheMovieDB writes it.
    static func moviePage(bytes: Int) -> Data {
        var movies: [String] = []
        var size = 0
        var id = 1
        while size < bytes {
            let movie = """
                {"adult":false,"backdrop_path":"/b\(id)xK9.jpg","genre_ids":[18,\(id % 50),10749],"id":\(id),\
                "original_language":"en","overview":"A story of \(id) people who meet \\"by chance\\" in Zürich, \
                and the choices that follow.","popularity":\(Double(id) * 1.37),"poster_path":\(id % 7 == 0 ? "null" : "\"/p\(id).jpg\""),\
                "release_date":"2024-0\(id % 9 + 1)-1\(id % 9)","title":"Movie Nº \(id)","vote_average":\(Double(id % 100) / 10),\
                "vote_count":\(id * 13)}
                """
            movies.append(movie)
            size += movie.utf8.count + 1
            id += 1
        }
        return Data(#"{"page":1,"results":[\#(movies.joined(separator: ","))],"total_pages":500,"total_results":10000}"#.utf8)
    }

    static func run(selected: (String) -> Bool) throws {
        for payload in payloads() where selected("decode_\(payload.name)") {
            try payload.decodeUTF8(payload.bytes)
            try payload.decodeFoundation(payload.bytes)
            // About 50 MB through each decoder per round, at least 20 decodes.
            let iterations = max(20, 50_000_000 / payload.bytes.count)
            var best = (utf8: Double.infinity, foundation: Double.infinity)
            for _ in 0..<5 {
                best.foundation = min(best.foundation, try time(iterations) { try payload.decodeFoundation(payload.bytes) })
                best.utf8 = min(best.utf8, try time(iterations) { try payload.decodeUTF8(payload.bytes) })
            }
            let count = Double(payload.bytes.count)
            output(
                "MICRO name=decode_\(payload.name) bytes=\(payload.bytes.count) "
                    + "foundation_ns_per_byte=\(format(best.foundation / count, 2)) utf8_ns_per_byte=\(format(best.utf8 / count, 2)) "
                    + "foundation_us=\(format(best.foundation / 1000, 1)) utf8_us=\(format(best.utf8 / 1000, 1)) "
                    + "speedup=\(format(best.foundation / best.utf8, 2))"
            )
        }
    }

    /// Nanoseconds per call of `body`, over `iterations` calls.
    static func time(_ iterations: Int, _ body: () throws -> Void) throws -> Double {
        let start = ContinuousClock.now
        for _ in 0..<iterations { try body() }
        let elapsed = ContinuousClock.now - start
        let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        return nanoseconds / Double(iterations)
    }
}
