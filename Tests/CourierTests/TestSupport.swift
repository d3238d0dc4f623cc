import Courier
import Foundation

/// Models used by the pure tests.
struct Account: Codable, Sendable, Equatable {
    var id: Int
    var name: String
}

struct Shelf: Codable, Sendable, Equatable {
    struct Book: Codable, Sendable, Equatable {
        var title: String
        var pages: Int
    }
    var books: [Book]
}

extension Configuration {
    static var test: Configuration { Configuration(baseURL: "https://api.example.com/v2") }
}

extension HTTPField.Name {
    static let custom = HTTPField.Name("X-Custom")!
}
