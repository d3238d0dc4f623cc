import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime

/// Writes one line per exchange through swift-log: method, URL, status, duration, bytes and
/// attempt, with secrets redacted (see ``Redaction``; the client's ``Configuration/credentialFields``,
/// including each ``AuthenticationMiddleware``'s header or query name, are always hidden). At debug
/// level it also writes the request as
/// a `curl` command. Courier is silent unless a client has this middleware.
///
/// ```swift
/// var logger = Logger(label: "com.example.app.network")
/// logger.logLevel = .debug
/// let api = Client(baseURL: "https://api.example.com") {
///     $0.middleware = [LoggingMiddleware(logger: logger)]
/// }
/// // info: GET https://api.example.com/v1/friends?user_id=1 → 200 in 38 ms, 1204 bytes, attempt 1, HTTP/2
/// ```
/// Place it innermost (last in the list) to see every attempt; outermost to see one line per call.
///
/// `Logger` is swift-log's, which Courier depends on but does not re-export (it would make
/// `Logger` ambiguous in every file that also imports Apple's `os`): add
/// `.product(name: "Logging", package: "swift-log")` to the target's dependencies and
/// `import Logging` where the logger is made.
public struct LoggingMiddleware: Middleware {
    /// Where lines go.
    public let logger: Logger
    /// The level of the exchange lines; failures are logged one level higher (at least `warning`).
    public let level: Logger.Level
    /// What is hidden.
    public let redaction: Redaction

    /// Creates the middleware.
    /// - Parameters:
    ///   - logger: Where lines go.
    ///   - level: The level of exchange lines; `.info` by default.
    ///   - redaction: What is hidden; ``Redaction/default`` by default.
    public init(logger: Logger, level: Logger.Level = .info, redaction: Redaction = .default) {
        self.logger = logger
        self.level = level
        self.redaction = redaction
    }

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> MiddlewareResponse {
        // The client's credential fields too: an authentication scheme's header or query name.
        let redaction = self.redaction.hiding(context.credentialFields)
        let url = LoggedURL.render(request, redaction: redaction)
        if logger.logLevel <= .debug {
            let bodyData = try await Self.bufferedData(body)
            logger.debug("\(CURLCommand.render(request, body: bodyData, redaction: redaction))")
        }
        let started = ContinuousClock.now
        do {
            let result = try await next(request, body, context)
            let (response, responseBody) = (result.response, result.body)
            let milliseconds = (ContinuousClock.now - started).wholeMilliseconds
            let bytes = responseBody.flatMap { if case .known(let length) = $0.length { length } else { nil } }
            let lineLevel = response.status.kind == .serverError ? max(level, .warning) : level
            logger.log(
                level: lineLevel,
                "\(request.method) \(url) → \(response.status.code) in \(milliseconds) ms, \(bytes.map(String.init) ?? "?") bytes, attempt \(context.attempt)\(result.httpVersion == .unknown ? "" : ", \(result.httpVersion)")",
                metadata: [
                    "courier.endpoint": "\(context.name)",
                    "courier.status": "\(response.status.code)",
                    "courier.duration_ms": "\(milliseconds)",
                    "courier.attempt": "\(context.attempt)",
                    "courier.http_version": "\(result.httpVersion)",
                ]
            )
            if logger.logLevel <= .trace {
                logger.trace("response headers: \(redaction.redact(response.headerFields))")
            }
            return result
        } catch {
            let failure = CourierError(error)
            logger.log(
                level: max(level, .warning),
                "\(request.method) \(url) failed in \((ContinuousClock.now - started).wholeMilliseconds) ms, attempt \(context.attempt): \(failure.kind) — \(failure.localizedDescription)",
                metadata: ["courier.endpoint": "\(context.name)", "courier.error": "\(failure.kind)"]
            )
            throw error
        }
    }

    /// The largest request body copied into a `curl` line; larger ones (file uploads) are left out.
    static let largestLoggedBody = 64 * 1024

    /// The body's bytes, when it can be read twice (Courier's own bodies can) and is small enough
    /// to show; `nil` otherwise.
    private static func bufferedData(_ body: HTTPBody?) async throws -> Data? {
        guard let body, body.iterationBehavior == .multiple, case .known(let length) = body.length,
            length <= largestLoggedBody
        else { return nil }
        return try await Data(collecting: body, upTo: Int(length))
    }
}
