import Foundation
import HTTPTypes
import NIOCore

/// What the server remembers of each `Idempotency-Key`: the request it came with and the first
/// result, replayed for every later request with the key.
actor IdempotencyLedger {
    /// A response as first sent.
    struct StoredResponse: Sendable {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var body: ByteBuffer
    }

    /// What to do with a request carrying a key.
    enum Admission: Sendable {
        /// The key is new: run the request, then ``finish(_:with:)`` or ``abandon(_:)``.
        case proceed
        /// The key was used for this request before: send its first result again.
        case replay(StoredResponse)
        /// The key was used for another request (method, path or body differ).
        case mismatch
        /// A request with the key is running now.
        case inProgress
    }

    private enum Record {
        case running(fingerprint: String)
        case done(fingerprint: String, response: StoredResponse)
    }

    private var records: [String: Record] = [:]
    private(set) var replays = 0

    func admit(key: String, fingerprint: String) -> Admission {
        switch records[key] {
        case nil:
            records[key] = .running(fingerprint: fingerprint)
            return .proceed
        case .running(let first):
            return first == fingerprint ? .inProgress : .mismatch
        case .done(let first, let response):
            guard first == fingerprint else { return .mismatch }
            replays += 1
            return .replay(response)
        }
    }

    func finish(_ key: String, with response: StoredResponse) {
        guard case .running(let fingerprint) = records[key] else { return }
        records[key] = .done(fingerprint: fingerprint, response: response)
    }

    /// Forgets a key whose request did not run to a result worth keeping (a failure the client
    /// may retry), so that the next request with it runs.
    func abandon(_ key: String) {
        records[key] = nil
    }
}
