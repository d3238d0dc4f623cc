import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport failure a stub answers with: the errors a real transport throws when the network
/// lets a request down, which the client classifies as it would theirs.
///
/// ```swift
/// stub.answer(.any, with: .failure(.offline))   // CourierError.Kind.notConnected
/// ```
public struct StubFailure: Sendable, CustomStringConvertible {
    private let make: @Sendable () -> any Error
    /// What happened, for messages.
    public let description: String

    private init(_ description: String, _ make: @escaping @Sendable () -> any Error) {
        self.description = description
        self.make = make
    }

    /// No network: the client reports `CourierError.Kind.notConnected`.
    public static let offline = StubFailure("offline") { URLError(.notConnectedToInternet) }

    /// The transport gave up waiting: `CourierError.Kind.timedOut`.
    public static let timedOut = StubFailure("timed out") { URLError(.timedOut) }

    /// The server reset the connection: `CourierError.Kind.notConnected`.
    public static let connectionReset = StubFailure("connection reset") { POSIXError(.ECONNRESET) }

    /// The server's certificate was refused: `CourierError.Kind.untrustedServer`.
    public static let untrustedServer = StubFailure("untrusted server") { URLError(.serverCertificateUntrusted) }

    /// Any error, thrown as the transport's own.
    /// - Parameter error: The error.
    /// - Returns: The failure.
    public static func error(_ error: some Error & Sendable) -> StubFailure {
        StubFailure(String(describing: error)) { error }
    }

    /// The error the stub throws.
    var error: any Error { make() }
}
