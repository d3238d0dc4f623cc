// Compiled with the package trait `AsyncHTTPClient`; without it this module is empty.
#if AsyncHTTPClient
import AsyncHTTPClient
import Courier
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOHTTPCompression
import NIOPosix
import NIOSOCKS
import NIOSSL

/// Turns AsyncHTTPClient's and SwiftNIO's errors into ``CourierError`` kinds. The one place that
/// knows their cases, as `TransportErrorClassifier` is for URLSession.
enum AsyncHTTPClientErrorClassifier {
    /// - Parameters:
    ///   - error: What AsyncHTTPClient or SwiftNIO threw.
    ///   - origin: The server the request went to, when known: a proxy's refusal names its port.
    static func courierError(for error: any Error, origin: URL? = nil) -> CourierError {
        if let courierError = error as? CourierError { return courierError }
        if let proxyError = proxyError(for: error, origin: origin) { return proxyError }
        if let refusal = clientCertificateRefusal(for: error) { return refusal }
        if isUnansweredStream(error) {
            return CourierError(
                .notConnected,
                message: "The server closed the HTTP/2 stream before answering: it was closing the connection (GOAWAY) or "
                    + "refused the stream. A request that is not idempotent is not sent again by itself.",
                underlyingError: error
            )
        }
        return CourierError(kind(of: error), underlyingError: error)
    }

    /// The error for a server's TLS alert about the client's certificate (mutual TLS), from a
    /// failed handshake (TLS 1.2) or the first read after it (TLS 1.3): the alert's name says why.
    static func clientCertificateRefusal(for error: any Error) -> CourierError? {
        guard error is NIOSSLError || error is BoringSSLError else { return nil }
        let text = String(describing: error)
        let reason: String
        if text.contains("CERTIFICATE_EXPIRED") {
            reason = "The server refused the client certificate: it has expired."
        } else if text.contains("ALERT_UNKNOWN_CA") {
            reason = "The server refused the client certificate: it does not trust the certificate's issuer."
        } else if text.contains("CERTIFICATE_REQUIRED") || text.contains("ALERT_HANDSHAKE_FAILURE") {
            reason = "The server ended the TLS handshake: it requires a client certificate (mutual TLS), or accepts none of the client's TLS settings."
        } else if text.contains("ALERT_BAD_CERTIFICATE") || text.contains("ALERT_CERTIFICATE_UNKNOWN") || text.contains("ALERT_DECRYPT_ERROR") {
            reason = "The server refused the client certificate."
        } else {
            return nil
        }
        return CourierError(.clientCertificateRefused, message: reason, underlyingError: error)
    }

    /// The error for a proxy's refusal, with a message that names the proxy as the one refusing.
    static func proxyError(for error: any Error, origin: URL? = nil) -> CourierError? {
        if let clientError = error as? HTTPClientError {
            switch clientError {
            case .proxyAuthenticationRequired:
                return CourierError(
                    .proxyAuthenticationRequired,
                    message: "The proxy answered 407: it needs valid credentials.",
                    underlyingError: error
                )
            case .invalidProxyResponse:
                return CourierError(.notConnected, message: tunnelRefusal(to: origin), underlyingError: error)
            default:
                return nil
            }
        }
        if let refusal = error as? SOCKSError.ConnectionFailed {
            return CourierError(
                .notConnected,
                message: "The SOCKS5 proxy could not connect to the server: \(socksReplyMeaning(refusal.reply)) (reply \(refusal.reply.value)).",
                underlyingError: error
            )
        }
        if error is SOCKSError.InvalidAuthenticationSelection {
            return CourierError(
                .proxyAuthenticationRequired,
                message: "The SOCKS5 proxy accepts none of the authentication methods offered: it needs credentials.",
                underlyingError: error
            )
        }
        if error is SOCKSError.InvalidProtocolVersion || error is SOCKSError.InvalidReservedByte {
            return CourierError(.notConnected, message: "The proxy does not speak SOCKS5.", underlyingError: error)
        }
        return nil
    }

    /// Why a proxy refused a `CONNECT` tunnel, and what to do. Every origin goes through a tunnel,
    /// plain http too, and most proxies open tunnels to port 443 alone (squid's stock
    /// `http_access deny CONNECT !SSL_ports`), so a tunnel to any other port is the likely refusal.
    static func tunnelRefusal(to origin: URL?) -> String {
        let port = origin.flatMap { $0.port ?? ($0.scheme?.lowercased() == "https" ? 443 : 80) }
        guard let port, port != 443 else { return "The proxy refused to open a tunnel to the server." }
        return "The proxy refused to open a tunnel (CONNECT) to port \(port): most proxies allow tunnels to port 443 (https) only, "
            + "and this transport tunnels plain http too. Use the server's https address, have the proxy allow CONNECT to port \(port) "
            + "(squid: add it to SSL_ports), or reach this host directly (Proxy.bypassing)."
    }

    static func kind(of error: any Error) -> CourierError.Kind {
        if let clientError = error as? HTTPClientError { return kind(of: clientError) }
        if let ioError = error as? IOError, let code = POSIXErrorCode(rawValue: ioError.errnoCode) {
            return CourierError(POSIXError(code)).kind
        }
        if error is NIOConnectionError { return .notConnected }
        if let channelError = error as? ChannelError {
            switch channelError {
            case .connectTimeout: return .notConnected
            case .ioOnClosedChannel, .eof, .alreadyClosed, .outputClosed, .inputClosed: return .notConnected
            default: return .transportFailed
            }
        }
        if error is HTTPParserError { return .invalidResponse }
        if let decompressionError = error as? NIOHTTPDecompression.DecompressionError {
            // A body inflating past the ratio is a compression bomb; other failures, a corrupt body.
            return decompressionError == .limit ? .responseTooLarge : .invalidResponse
        }
        if error is NIOHTTPDecompression.ExtraDecompressionError { return .invalidResponse }
        if let sslError = error as? NIOSSLError {
            switch sslError {
            case .handshakeFailed: return .untrustedServer
            case .uncleanShutdown: return .notConnected
            default: return .transportFailed
            }
        }
        // A certificate that does not name the host.
        if error is NIOSSLExtraError { return .untrustedServer }
        return CourierError(error).kind
    }

    /// Whether `error` closed an HTTP/2 stream before its response: SwiftNIO closes the streams
    /// above a GOAWAY's last stream id with `CANCEL`, and a server refuses one it will not
    /// process with `REFUSED_STREAM` (RFC 9113 §6.8, §8.7).
    static func isUnansweredStream(_ error: any Error) -> Bool {
        guard let closed = error as? NIOHTTP2Errors.StreamClosed else { return false }
        return closed.errorCode == .cancel || closed.errorCode == .refusedStream
    }

    static func kind(of error: HTTPClientError) -> CourierError.Kind {
        switch error {
        case .cancelled:
            .cancelled
        case .readTimeout, .writeTimeout, .deadlineExceeded:
            .timedOut
        case .connectTimeout, .remoteConnectionClosed, .socksHandshakeTimeout, .httpProxyHandshakeTimeout, .invalidProxyResponse:
            .notConnected
        case .proxyAuthenticationRequired:
            .proxyAuthenticationRequired
        case .invalidURL, .emptyHost, .emptyScheme, .missingSocketPath, .traceRequestWithBody:
            .invalidRequest
        case .redirectLimitReached, .redirectCycleDetected, .bodyLengthMismatch:
            .invalidResponse
        default:
            .transportFailed
        }
    }

    /// What a SOCKS5 reply code means, in RFC 1928's words (section 6).
    static func socksReplyMeaning(_ reply: SOCKSServerReply) -> String {
        switch reply {
        case .serverFailure: "general SOCKS server failure"
        case .notAllowed: "connection not allowed by ruleset"
        case .networkUnreachable: "network unreachable"
        case .hostUnreachable: "host unreachable"
        case .refused: "connection refused"
        case .ttlExpired: "TTL expired"
        case .commandUnsupported: "command not supported"
        case .addressUnsupported: "address type not supported"
        default: "an unassigned reply"
        }
    }
}
#endif
