import Courier
import CourierTesting
import Foundation

/// A model the stub answers with.
struct Account: Codable, Sendable, Equatable {
    var id: Int
    var name: String
}

/// The endpoints of the tests' backend.
enum AccountAPI: Endpoint {
    case account(id: Int)
    case rename(id: Int, name: String)

    var request: Request<Account> {
        switch self {
        case .account(let id): Request(.get, "accounts/\(id)")
        case .rename(let id, let name): Request(.put, "accounts/\(id)", body: .json(["name": name]))
        }
    }
}

extension AccountAPI: SampleResponding {
    var sampleResponse: StubResponse {
        switch self {
        case .account(let id): .json(Account(id: id, name: "Sample"))
        case .rename(let id, let name): .json(Account(id: id, name: name))
        }
    }
}

extension Client {
    /// A client of `https://api.example.com/v2` over `transport`.
    static func accounts(_ transport: any Transport, configure: (inout Configuration) -> Void = { _ in }) -> Client {
        Client(baseURL: "https://api.example.com/v2", transport: transport) {
            $0.errorFormat = .message
            configure(&$0)
        }
    }
}

/// Where the test target's fixture files are.
let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil)
