import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The ``ServerTrustEvaluation`` of a platform whose URLSession raises no server-trust challenge
/// (Linux): it cannot be made, so a URLSession transport given pins or roots refuses to start
/// instead of sending requests without them.
struct TrustRefusal: ServerTrustEvaluation {
    /// The error a URLSession transport given `trust` fails with here.
    static let unsupported = CourierError(
        .invalidRequest,
        message: """
            URLSession on this platform cannot check a server's certificate against custom roots or public-key pins. \
            Use the AsyncHTTPClient transport (HTTPClientTransport(trust:) in CourierAsyncHTTPClient) for them.
            """
    )

    /// Refuses `trust`.
    /// - Throws: ``unsupported``, always.
    init(_ trust: ServerTrust) throws {
        throw Self.unsupported
    }

    /// Refuses the server: never reached, as the evaluation is never made.
    func answer(
        _ challenge: URLAuthenticationChallenge,
        refuse: @escaping @Sendable (CourierError) -> Void,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        refuse(Self.unsupported)
        completionHandler(.cancelAuthenticationChallenge, nil)
    }
}
