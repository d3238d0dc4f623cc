import Foundation
import HTTPTypes

/// The one error Courier throws: what went wrong (``kind``), in words a user can be shown
/// (`localizedDescription`), with the context a developer needs.
///
/// Switch over the kind to decide what the app does; show `localizedDescription` to the user:
///
/// ```swift
/// do {
///     let friends = try await social.send(SocialAPI.friends(of: user.id))
/// } catch let error as CourierError {
///     switch error.kind {
///     case .notConnected: showOfflineBanner()
///     case .unauthorized: showLogin()
///     case .cancelled: break
///     default: showAlert(error.localizedDescription)   // e.g. the server's own message
///     }
/// }
/// ```
public struct CourierError: Error, Sendable {
    /// What went wrong.
    public var kind: Kind
    /// The most specific explanation: the server's own message for an error status, the reason a
    /// request was refused locally, or what could not be decoded. Kept to one line of at most
    /// 1,000 characters, without control characters or terminal escape sequences, whatever a
    /// server sends.
    public var message: String? {
        didSet { if let message { self.message = ErrorText.sanitized(message) } }
    }
    /// The response status, when a response arrived.
    public var status: HTTPResponse.Status?
    /// The response header fields, when a response arrived.
    public var responseHeaderFields: HTTPFields?
    /// A machine-readable error code from the server's error body (e.g. TMDB's `status_code`).
    public var serverCode: Int?
    /// The key path of the value that failed to decode, e.g. `results[3].vote_average`.
    public var codingPath: String?
    /// The response body of an error status (at most 64 KiB), for diagnostics.
    public var responseBody: Data?
    /// The request as it was sent (or about to be), when it got that far.
    public var request: HTTPRequest?
    /// The error that caused this one (a `URLError`, a `DecodingError`, …).
    public var underlyingError: (any Error)?
    /// For ``Kind/webSocket``: why the socket ended or did not open, with the close code and
    /// reason.
    public var webSocket: WebSocketFailure?
    /// Whether ``message`` already hides every credential (as a `Redaction` does), so that
    /// descriptions show its URLs' other query values instead of masking them all.
    package var messageIsRedacted = false

    /// Creates an error.
    /// - Parameters:
    ///   - kind: What went wrong.
    ///   - message: An explanation a user can read.
    ///   - underlyingError: The cause, if any.
    public init(_ kind: Kind, message: String? = nil, underlyingError: (any Error)? = nil) {
        self.kind = kind
        self.message = message.map(ErrorText.sanitized)
        self.underlyingError = underlyingError
    }
}

extension CourierError {
    /// Turns any error thrown while sending into a `CourierError`: connection failures become
    /// ``Kind/notConnected``, cancellation ``Kind/cancelled``, and so on.
    /// - Parameter error: The error to classify; a `CourierError` is returned unchanged.
    public init(_ error: any Error) {
        if let courierError = error as? CourierError {
            self = courierError
        } else {
            self.init(TransportErrorClassifier.kind(of: error), underlyingError: error)
        }
    }

    /// The same error with the request attached, unless one is there already.
    func with(request: HTTPRequest) -> CourierError {
        var copy = self
        if copy.request == nil { copy.request = request }
        return copy
    }
}

extension CourierError: LocalizedError {
    /// A sentence a user can be shown: the server's or the local message when there is one, except
    /// for the kinds whose message is technical (`decodingFailed`, `encodingFailed`,
    /// `transportFailed`, `notConnected`, `timedOut`, `cancelled`, `fileAccessFailed`,
    /// `tooManyRedirects`, `insecureRedirect`), which get a plain description of the kind; their
    /// message is in ``message`` and ``failureReason``.
    public var errorDescription: String? {
        switch kind {
        case .decodingFailed, .encodingFailed, .transportFailed, .notConnected, .timedOut,
            .cancelled, .fileAccessFailed, .tooManyRedirects, .insecureRedirect:
            kind.userDescription(status: status)
        default:
            message.map(ErrorText.redactingURLs(in:)) ?? kind.userDescription(status: status)
        }
    }

    /// The technical reason, for logs and bug reports: no URL's userinfo or query values, no
    /// header values.
    public var failureReason: String? {
        var parts: [String] = []
        if let codingPath { parts.append("at \(codingPath)") }
        if let message { parts.append(message) }
        if let underlyingError { parts.append(Self.summary(of: underlyingError)) }
        guard !parts.isEmpty else { return nil }
        let reason = ErrorText.joined(parts)
        return messageIsRedacted && underlyingError == nil ? reason : ErrorText.redactingURLs(in: reason)
    }

    /// The cause in one bounded line: a `URLError`'s or `NSError`'s domain, code and description
    /// (not its user info, which repeats the URL), any other error as it describes itself.
    private static func summary(of error: any Error) -> String {
        if let decodingError = error as? DecodingError {
            return ErrorText.sanitized(Self.summary(of: decodingError))
        }
        if error is CourierError || error is CancellationError {
            return ErrorText.sanitized(String(describing: error))
        }
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain || nsError.domain == NSCocoaErrorDomain || nsError.domain == NSPOSIXErrorDomain {
            return ErrorText.sanitized("\(nsError.domain) \(nsError.code): \(nsError.localizedDescription)")
        }
        return ErrorText.sanitized(String(describing: error))
    }
}

extension CourierError {
    /// What a `DecodingError` says, without the enum's and context's wrapping.
    private static func summary(of error: DecodingError) -> String {
        switch error {
        case .keyNotFound(_, let context), .valueNotFound(_, let context), .typeMismatch(_, let context), .dataCorrupted(let context):
            context.debugDescription
        @unknown default:
            String(describing: error)
        }
    }
}

extension CourierError: CustomStringConvertible {
    /// A one-line summary for developers: kind, request, status and reason. Never includes header
    /// values, bodies, query values or a URL's userinfo, so it is safe to log.
    public var description: String {
        var text = "CourierError.\(kind)"
        if let request {
            text += " \(request.method) \(request.scheme ?? "")://\(request.authority ?? "")"
            text += ErrorText.redactingQuery(in: request.path ?? "")
        }
        if let status { text += " → \(status.code)" }
        if let serverCode { text += " (server code \(serverCode))" }
        if let failureReason { text += ": \(failureReason)" }
        return text
    }
}

extension CourierError: CustomDebugStringConvertible {
    /// The same as ``description``.
    public var debugDescription: String { description }
}

extension CourierError: CustomReflectable {
    /// What `dump(_:)` and debuggers show: the kind, the messages and the status, and the request
    /// and cause only as ``description`` renders them, so that no header value or query value
    /// appears.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "kind": kind as Any,
                "message": message.map(ErrorText.redactingURLs(in:)) as Any,
                "status": status?.code as Any,
                "serverCode": serverCode as Any,
                "codingPath": codingPath as Any,
                "webSocket": webSocket as Any,
                "description": description as Any,
            ],
            displayStyle: .struct
        )
    }
}
