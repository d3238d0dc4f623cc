import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Decides which ``CourierError/Kind`` a transport's error belongs to.
///
/// Transports throw their own errors (`URLError` from URLSession, POSIX errors from sockets);
/// apps should only ever see the kinds, so this is the one place that knows the codes.
enum TransportErrorClassifier {
    static func kind(of error: any Error) -> CourierError.Kind {
        if let courierError = error as? CourierError { return courierError.kind }
        if error is CancellationError { return .cancelled }
        let nsError = error as NSError
        if isLostConnection(nsError) { return .notConnected }
        if isIncompleteBody(nsError) || isOversizedHead(nsError) { return .invalidResponse }
        if let urlError = error as? URLError, urlError.code != .unknown { return kind(of: urlError.code) }
        if let posixError = error as? POSIXError { return kind(of: posixError.code) }
        if isCertificateProblem(nsError) { return .untrustedServer }
        if nsError.domain == NSURLErrorDomain, let code = URLError.Code(rawValue: nsError.code) {
            return kind(of: code)
        }
        if nsError.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(nsError.code)) {
            return kind(of: code)
        }
        return .transportFailed
    }

    /// URLSession on Linux (libcurl underneath) reports a body cut short by the server as an
    /// unknown error (-1) whose only trace is curl's message; on Apple platforms it is
    /// `networkConnectionLost`. Either way the response arrived incomplete.
    static func isIncompleteBody(_ error: NSError) -> Bool {
        guard let message = curlMessage(of: error) else { return false }
        return malformedResponseMessages.contains { message.localizedCaseInsensitiveContains($0) }
    }

    /// What libcurl says of a response it could not read: a status line, header or chunk it
    /// could not parse, or a body shorter than announced.
    static let malformedResponseMessages = [
        "outstanding read data remaining", "transfer closed with", "weird server reply", "invalid status line",
        "unsupported http version", "http/0.9", "header without colon", "chunked", "invalid header",
        "nul byte in header", "too large response headers", "overflow", "unsupported protocol",
        "unsupported response code",
    ]

    /// libcurl refuses a response head past its size limit (100 KiB) as "Out of memory", the
    /// one place it says so before its own allocations could fail: the server's answer, not the
    /// machine, is at fault, as AsyncHTTPClient's header overflow says.
    static func isOversizedHead(_ error: NSError) -> Bool {
        curlMessage(of: error)?.localizedCaseInsensitiveContains("out of memory") == true
    }

    /// What libcurl says when the connection broke: reset, or closed before any response (an
    /// empty reply, which URLSession on Linux reports as a bad server response).
    static func isLostConnection(_ error: NSError) -> Bool {
        guard let message = curlMessage(of: error)?.lowercased() else { return false }
        return message.contains("empty reply from server") || message.contains("connection reset")
            || message.contains("recv failure") || message.contains("send failure")
    }

    /// The same on Linux for a certificate libcurl refused (unknown issuer, wrong host name,
    /// expired); Apple platforms report `serverCertificateUntrusted` and its siblings.
    static func isCertificateProblem(_ error: NSError) -> Bool {
        guard let message = curlMessage(of: error) else { return false }
        return message.hasPrefix("SSL certificate problem") || message.contains("certificate subject name")
            || message.contains("SSL peer certificate")
    }

    /// libcurl's message, for the URL errors URLSession on Linux makes of curl's codes: unknown
    /// (-1) for most, unsupported URL for an answer curl could not read as HTTP (HTTP/0.9), bad
    /// server response for an empty reply.
    private static func curlMessage(of error: NSError) -> String? {
        let codes = [URLError.Code.unknown, .unsupportedURL, .badServerResponse].map(\.rawValue)
        guard error.domain == NSURLErrorDomain, codes.contains(error.code) else { return nil }
        return error.userInfo[NSLocalizedDescriptionKey] as? String
    }

    static func kind(of code: URLError.Code) -> CourierError.Kind {
        switch code {
        case .cancelled, .userCancelledAuthentication:
            .cancelled
        case .timedOut:
            .timedOut
        case .notConnectedToInternet, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed,
            .networkConnectionLost, .internationalRoamingOff, .dataNotAllowed, .callIsActive,
            .resourceUnavailable:
            .notConnected
        case .badServerResponse, .cannotParseResponse, .zeroByteResource, .cannotDecodeRawData,
            .cannotDecodeContentData, .httpTooManyRedirects, .redirectToNonExistentLocation:
            .invalidResponse
        case .dataLengthExceedsMaximum:
            .responseTooLarge
        case .badURL, .unsupportedURL:
            .invalidRequest
        case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
            .serverCertificateHasUnknownRoot, .secureConnectionFailed:
            .untrustedServer
        default:
            .transportFailed
        }
    }

    static func kind(of code: POSIXErrorCode) -> CourierError.Kind {
        switch code {
        case .ECONNREFUSED, .ENETUNREACH, .EHOSTUNREACH, .ENETDOWN, .EHOSTDOWN, .ECONNRESET, .ECONNABORTED,
            .ENOTCONN, .EPIPE, .ENETRESET:
            .notConnected
        case .ETIMEDOUT:
            .timedOut
        case .ECANCELED:
            .cancelled
        default:
            .transportFailed
        }
    }
}
