// Compiled with the package trait `OfflineQueue`; without it this module is empty.
#if OfflineQueue
import Courier
import Foundation
import GRDB
import HTTPTypes

/// One row of the `entry` table: everything needed to send the mutation again, in any process.
/// Credentials and common parameters are never here.
struct StoredEntry: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "entry"

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let state = Column(CodingKeys.state)
        static let nextAttemptAt = Column(CodingKeys.nextAttemptAt)
        static let lastErrorKind = Column(CodingKeys.lastErrorKind)
        static let requiresAuthentication = Column(CodingKeys.requiresAuthentication)
    }

    /// The states as stored.
    enum StoredState: String, Codable {
        case pending
        case rejected
        case exhausted
        case expired
        case unsendable
    }

    var id: Int64?
    var kind: String
    var method: String
    var name: String
    var pathTemplate: String
    var path: String
    var query: String
    var queryNames: [String]
    /// Name and value pairs, in order.
    var headerFields: [[String]]
    var body: Data?
    /// A file name in the queue's body folder.
    var bodyFile: String?
    var requiresAuthentication: Bool
    /// Seconds.
    var timeout: Double?
    var baseURL: String?
    var idempotencyKey: String
    var state: StoredState
    var attempts: Int
    /// Seconds since 1970.
    var enqueuedAt: Double
    /// Seconds since 1970.
    var nextAttemptAt: Double
    var lastStatus: Int?
    var lastResponseFields: [[String]]?
    var lastResponseBody: Data?
    var lastError: String?
    /// `transport` when the last attempt reached no server: a connectivity change makes it due.
    var lastErrorKind: String?

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// The entry made from a deferred request.
    init(_ request: DeferredRequest, kind: String, bodyFile: String?, idempotencyKey: String, now: Date) {
        self.kind = kind
        self.method = request.method.rawValue
        self.name = request.name
        self.pathTemplate = request.pathTemplate
        self.path = request.path
        self.query = request.query
        self.queryNames = request.queryNames
        self.headerFields = Self.pairs(request.headerFields)
        self.body = request.body
        self.bodyFile = bodyFile
        self.requiresAuthentication = request.requiresAuthentication
        self.timeout = request.timeout.map(Self.seconds)
        self.baseURL = request.baseURL?.text
        self.idempotencyKey = idempotencyKey
        self.state = .pending
        self.attempts = 0
        self.enqueuedAt = now.timeIntervalSince1970
        self.nextAttemptAt = now.timeIntervalSince1970
    }

    /// The request to send, with its `Idempotency-Key`.
    /// - Throws: ``CourierError/Kind/fileAccessFailed`` when the entry's body file cannot be read.
    func deferred(bodies: URL) throws(CourierError) -> DeferredRequest {
        var fields = Self.fields(headerFields)
        fields[.idempotencyKey] = idempotencyKey
        var payload = body.map { RequestPayload.bytes($0) }
        if let bodyFile { payload = try .file(bodies.appendingPathComponent(bodyFile)) }
        return DeferredRequest(
            method: HTTPRequest.Method(method) ?? .post,
            name: name,
            pathTemplate: pathTemplate,
            path: path,
            query: query,
            queryNames: queryNames,
            headerFields: fields,
            payload: payload,
            requiresAuthentication: requiresAuthentication,
            timeout: timeout.map { .milliseconds(Int64(($0 * 1000).rounded())) },
            baseURL: baseURL.map { BaseURL($0) }
        )
    }

    /// The entry as the app sees it.
    var entry: OfflineQueue.Entry {
        let state: OfflineQueue.State =
            switch self.state {
            case .pending: .pending
            case .rejected: .failed(.rejected(HTTPResponse.Status(code: lastStatus ?? 400)))
            case .exhausted: .failed(.attemptsExhausted)
            case .expired: .failed(.expired)
            case .unsendable: .failed(.unsendable)
            }
        return OfflineQueue.Entry(
            id: id ?? 0,
            kind: kind,
            method: HTTPRequest.Method(method) ?? .post,
            path: path,
            idempotencyKey: idempotencyKey,
            state: state,
            attempts: attempts,
            enqueuedAt: Date(timeIntervalSince1970: enqueuedAt),
            nextAttemptAt: Date(timeIntervalSince1970: nextAttemptAt),
            lastResponse: lastStatus.map {
                OfflineQueue.ServerResponse(
                    status: HTTPResponse.Status(code: $0),
                    headerFields: Self.fields(lastResponseFields ?? []),
                    body: lastResponseBody ?? Data()
                )
            },
            lastError: lastError
        )
    }

    static func pairs(_ fields: HTTPFields) -> [[String]] {
        fields.map { [$0.name.rawName, $0.value] }
    }

    static func fields(_ pairs: [[String]]) -> HTTPFields {
        var fields = HTTPFields()
        for pair in pairs where pair.count == 2 {
            if let name = HTTPField.Name(pair[0]) { fields.append(HTTPField(name: name, value: pair[1])) }
        }
        return fields
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
#endif
