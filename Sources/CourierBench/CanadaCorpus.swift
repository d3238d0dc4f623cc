import Foundation

/// A payload shaped as nativejson-benchmark's `canada.json`: one GeoJSON feature whose polygon is
/// about 2.2 MB of `[longitude, latitude]` pairs, each number written with 15 decimals (17
/// significant digits, past the short fast path of most number parsers).
enum CanadaCorpus {
    struct FeatureCollection: Decodable {
        var type: String
        var features: [Feature]
    }

    struct Feature: Decodable {
        var type: String
        var properties: [String: String]
        var geometry: Geometry
    }

    struct Geometry: Decodable {
        var type: String
        var coordinates: [[[Double]]]
    }

    /// The JSON text: rings of a random walk along a coastline, about `bytes` bytes in all.
    static func make(bytes: Int = 2_250_000) -> Data {
        var random = CorpusRandom(state: 0xCA_4ADA)
        var rings: [String] = []
        var size = 0
        var longitude = -65.613616999999977
        var latitude = 43.420273000000009
        while size < bytes {
            var points: [String] = []
            for _ in 0..<Int.random(in: 20...2000, using: &random) {
                longitude += Double.random(in: -0.02...0.02, using: &random)
                latitude += Double.random(in: -0.01...0.01, using: &random)
                points.append("[\(String(format: "%.15f", longitude)),\(String(format: "%.15f", latitude))]")
            }
            let ring = "[\(points.joined(separator: ","))]"
            rings.append(ring)
            size += ring.utf8.count + 1
            longitude = Double.random(in: -141...(-52), using: &random)
            latitude = Double.random(in: 42...83, using: &random)
        }
        return Data(
            """
            {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"Canada"},\
            "geometry":{"type":"Polygon","coordinates":[\(rings.joined(separator: ","))]}}]}
            """.utf8)
    }
}
