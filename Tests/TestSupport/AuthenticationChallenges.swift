import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Authentication challenges as URLSession hands them to a delegate, for tests of how Courier
/// answers them without a server.
public enum AuthenticationChallenges {
    /// A challenge from a proxy, as for its 407.
    /// - Parameters:
    ///   - host: The proxy's host.
    ///   - port: The proxy's port.
    ///   - previousFailureCount: How many answers failed before.
    /// - Returns: The challenge.
    public static func proxy(host: String = "proxy.test", port: Int = 3128, previousFailureCount: Int = 0) -> URLAuthenticationChallenge {
        let space = URLProtectionSpace(proxyHost: host, port: port, type: "http", realm: "proxy", authenticationMethod: NSURLAuthenticationMethodHTTPBasic)
        return challenge(space, previousFailureCount: previousFailureCount)
    }

    /// A challenge from a server with the given method.
    /// - Parameters:
    ///   - method: The protection space's authentication method.
    ///   - host: The server's host.
    ///   - failureResponse: The response that carried the challenge, if any.
    ///   - previousFailureCount: How many answers failed before.
    /// - Returns: The challenge.
    public static func server(
        method: String,
        host: String = "api.test",
        failureResponse: URLResponse? = nil,
        previousFailureCount: Int = 0
    ) -> URLAuthenticationChallenge {
        let space = URLProtectionSpace(host: host, port: 443, protocol: "https", realm: nil, authenticationMethod: method)
        return challenge(space, previousFailureCount: previousFailureCount, failureResponse: failureResponse)
    }

    private static func challenge(_ space: URLProtectionSpace, previousFailureCount: Int, failureResponse: URLResponse? = nil) -> URLAuthenticationChallenge {
        URLAuthenticationChallenge(
            protectionSpace: space,
            proposedCredential: nil,
            previousFailureCount: previousFailureCount,
            failureResponse: failureResponse,
            error: nil,
            sender: IgnoringSender()
        )
    }

    /// A sender nobody answers through: Courier answers with the delegate's completion handler.
    // @unchecked: no state.
    private final class IgnoringSender: NSObject, URLAuthenticationChallengeSender, @unchecked Sendable {
        func use(_ credential: URLCredential, for challenge: URLAuthenticationChallenge) {}
        func continueWithoutCredential(for challenge: URLAuthenticationChallenge) {}
        func cancel(_ challenge: URLAuthenticationChallenge) {}
        func performDefaultHandling(for challenge: URLAuthenticationChallenge) {}
        func rejectProtectionSpaceAndContinue(with challenge: URLAuthenticationChallenge) {}
    }
}
