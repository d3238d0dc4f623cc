import HTTPTypes

extension CourierError {
    /// The kinds of failure an app tells apart. Compare with `==` or `switch`:
    /// `case .notFound:`. New kinds may be added; keep a `default` branch.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        enum Code: String, Sendable, Hashable {
            case notConnected, timedOut, cancelled
            case unauthorized, forbidden, notFound, rateLimited, clientError, serverError, unexpectedStatus
            case invalidRequest, encodingFailed, decodingFailed, invalidResponse, responseTooLarge, streamElementTooLarge
            case tooManyRedirects, insecureRedirect
            case transportFailed, fileAccessFailed, untrustedServer, notCached
            case webSocket
            case proxyAuthenticationRequired, clientCertificateRefused
        }

        let code: Code

        /// The device is offline or the server could not be reached: no route, DNS failure,
        /// connection refused, connection lost before the response's head arrived.
        public static let notConnected = Kind(code: .notConnected)
        /// No complete response within the request's timeout (or the server answered 408).
        public static let timedOut = Kind(code: .timedOut)
        /// The caller cancelled the request (task cancellation, a handle, or `cancelAll()`).
        public static let cancelled = Kind(code: .cancelled)
        /// 401: the credentials are missing, wrong or expired.
        public static let unauthorized = Kind(code: .unauthorized)
        /// 403: the credentials are valid but not allowed to do this.
        public static let forbidden = Kind(code: .forbidden)
        /// 404: the resource does not exist.
        public static let notFound = Kind(code: .notFound)
        /// 429: the client sent too many requests.
        public static let rateLimited = Kind(code: .rateLimited)
        /// Another 4xx status: the server rejected the request.
        public static let clientError = Kind(code: .clientError)
        /// A 5xx status: the server failed.
        public static let serverError = Kind(code: .serverError)
        /// A status outside 2xx–5xx that the client does not handle (1xx, an unfollowed 3xx).
        public static let unexpectedStatus = Kind(code: .unexpectedStatus)
        /// The request was refused before any network traffic (a required field empty, a bad base
        /// URL, a path that would leave the base URL).
        public static let invalidRequest = Kind(code: .invalidRequest)
        /// The request body could not be encoded.
        public static let encodingFailed = Kind(code: .encodingFailed)
        /// The response body did not match the expected type (the coding path says where), was not
        /// JSON, or was empty.
        public static let decodingFailed = Kind(code: .decodingFailed)
        /// The response was not what was expected at the HTTP level (e.g. a wrong content type, a
        /// malformed response, or a body cut short: the connection ended after the head, before
        /// the body's end).
        public static let invalidResponse = Kind(code: .invalidResponse)
        /// The response body was larger than the configured maximum.
        public static let responseTooLarge = Kind(code: .responseTooLarge)
        /// One element of a stream, a server-sent event or a line of JSON Lines, was larger than
        /// its limit; the stream ends there.
        public static let streamElementTooLarge = Kind(code: .streamElementTooLarge)
        /// The server kept redirecting: more redirects than ``Configuration/redirectLimit``, or a
        /// loop back to a URL already requested. ``CourierError/status`` is the last redirect's.
        public static let tooManyRedirects = Kind(code: .tooManyRedirects)
        /// The server redirected from https to plain http, which Courier does not follow unless
        /// ``Configuration/allowsInsecureRedirects``; nothing was sent to the http URL.
        public static let insecureRedirect = Kind(code: .insecureRedirect)
        /// The transport failed in a way not covered above; the underlying error says how.
        public static let transportFailed = Kind(code: .transportFailed)
        /// A file to upload could not be read, a download could not be written to its destination, or
        /// a token store could not read or write its file or Keychain item.
        public static let fileAccessFailed = Kind(code: .fileAccessFailed)

        /// The server's certificate was not trusted, or its public key matched none of the host's
        /// pins (``ServerTrust``). Nothing of the request was sent.
        public static let untrustedServer = Kind(code: .untrustedServer)

        /// The request allowed only a stored response (``CachePolicy/onlyIfCached``, or
        /// `Cache-Control: only-if-cached`) and the cache held none it could use. Nothing was sent.
        public static let notCached = Kind(code: .notCached)

        /// A WebSocket ended or did not open: ``CourierError/webSocket`` says why (closed by the
        /// server, a protocol violation, a message too large, a ping timeout, a refused handshake,
        /// not connected), with the close code and reason.
        public static let webSocket = Kind(code: .webSocket)
        /// The proxy refused the connection for want of valid credentials (a 407, or a SOCKS5
        /// proxy that accepts none of the methods offered).
        public static let proxyAuthenticationRequired = Kind(code: .proxyAuthenticationRequired)
        /// The server requires a client certificate (mutual TLS) and was given none, or refused
        /// the one given: the message says which (missing, expired, from an issuer it does not
        /// trust).
        public static let clientCertificateRefused = Kind(code: .clientCertificateRefused)

        /// The kind's name, e.g. `notFound`.
        public var description: String { code.rawValue }

        /// The kind for a non-2xx status.
        /// - Parameter status: The response status.
        /// - Returns: `unauthorized`, `forbidden`, `notFound`, `timedOut` (408), `rateLimited`,
        ///   `clientError`, `serverError`, or `unexpectedStatus`.
        public static func forStatus(_ status: HTTPResponse.Status) -> Kind {
            switch status.code {
            case 401: .unauthorized
            case 403: .forbidden
            case 404: .notFound
            case 408: .timedOut
            case 429: .rateLimited
            case 400..<500: .clientError
            case 500..<600: .serverError
            default: .unexpectedStatus
            }
        }

        /// A sentence a user can read when there is no more specific message.
        func userDescription(status: HTTPResponse.Status?) -> String {
            let statusText = status.map { " (status \($0.code))" } ?? ""
            return switch code {
            case .notConnected: "No Internet connection."
            case .timedOut: "The request timed out. Please try again."
            case .cancelled: "The request was cancelled."
            case .unauthorized: "Please sign in again."
            case .forbidden: "You don't have permission to do that."
            case .notFound: "The requested item could not be found."
            case .rateLimited: "Too many requests. Please wait a moment and try again."
            case .clientError: "The server could not process the request\(statusText)."
            case .serverError: "The server had a problem\(statusText). Please try again later."
            case .unexpectedStatus: "The server gave an unexpected answer\(statusText)."
            case .invalidRequest: "The request is not valid."
            case .encodingFailed: "The request could not be prepared."
            case .decodingFailed: "The server's response could not be read."
            case .invalidResponse: "The server's response was not understood."
            case .responseTooLarge: "The server's response was too large."
            case .streamElementTooLarge: "The server sent an update that was too large."
            case .tooManyRedirects: "The server redirected too many times."
            case .insecureRedirect: "The server redirected to an insecure address. The request was not sent there."
            case .transportFailed: "The request could not be completed."
            case .fileAccessFailed: "The file could not be read or saved."
            case .untrustedServer: "The server's identity could not be verified. The connection was not used."
            case .notCached: "This isn't available offline yet."
            case .webSocket: "The live connection ended."
            case .proxyAuthenticationRequired: "The network's proxy refused the connection. Check the proxy's username and password."
            case .clientCertificateRefused: "The server did not accept this device's certificate."
            }
        }
    }
}
