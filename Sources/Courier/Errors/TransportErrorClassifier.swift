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
        if let urlError = error as? URLError, urlError.code != .unknown { return kind(of: urlError.code) }
        if let posixError = error as? POSIXError { return kind(of: posixError.code) }
        let nsError = error as NSError
        if isIncompleteBody(nsError) { return .invalidResponse }
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
        curlMessage(of: error)?.contains("outstanding read data remaining") == true
    }

    /// The same on Linux for a certificate libcurl refused (unknown issuer, wrong host name,
    /// expired); Apple platforms report `serverCertificateUntrusted` and its siblings.
    static func isCertificateProblem(_ error: NSError) -> Bool {
        guard let message = curlMessage(of: error) else { return false }
        return message.hasPrefix("SSL certificate problem") || message.contains("certificate subject name")
            || message.contains("SSL peer certificate")
    }

    /// libcurl's message, for the unknown URL errors (-1) that carry nothing else.
    private static func curlMessage(of error: NSError) -> String? {
        guard error.domain == NSURLErrorDomain, error.code == URLError.Code.unknown.rawValue else { return nil }
        return error.localizedDescription
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
