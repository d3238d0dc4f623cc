import Foundation
import HTTPTypes
import OpenAPIRuntime

extension Client {
    /// Sends a prepared request through the middleware chain and the transport.
    /// - Returns: The response and its body, read into memory.
    func exchange(
        _ prepared: PreparedRequest,
        configuration: Configuration,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var context = MiddlewareContext(
            name: prepared.name,
            origin: prepared.origin,
            requiresAuthentication: prepared.requiresAuthentication,
            timeout: prepared.timeout
        )
        context.progress = progress
        let limit = configuration.maximumResponseBodySize
        return try await MiddlewareChain.run(
            configuration.middleware,
            request: prepared.request,
            body: prepared.body.map { HTTPBody($0) },
            context: context
        ) { request, body, context in
            try await self.attempt(request, body: body, context: context, bodyLimit: limit)
        }
    }

    /// One attempt through the transport, ending when the whole response body is in memory or the
    /// attempt's timeout passes (then ``CourierError/Kind/timedOut``).
    func attempt(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        bodyLimit: Int
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let transport = self.transport
        let work = Task {
            let (response, responseBody) = try await transport.send(
                request,
                body: body.map { ProgressReportingBody.wrap($0, direction: .upload, report: context.progress) },
                baseURL: context.origin,
                operationID: context.name
            )
            let reported = responseBody.map {
                ProgressReportingBody.wrap(
                    $0,
                    direction: .download,
                    expectedLength: response.headerFields[.contentLength].flatMap { Int64($0) },
                    report: context.progress
                )
            }
            let data = try await Self.collect(reported, upTo: bodyLimit)
            return (response, Optional(HTTPBody(data)))
        }
        let id = attempts.insert(deadline: .now + context.timeout) { work.cancel() }
        do {
            let result = try await withTaskCancellationHandler {
                try await work.value
            } onCancel: {
                work.cancel()
            }
            attempts.remove(id)
            return result
        } catch {
            if attempts.remove(id) && !Task.isCancelled {
                throw CourierError(.timedOut, message: "No complete response within \(context.timeout).")
            }
            throw error
        }
    }

    /// Reads a body into memory, refusing to go past `limit` bytes.
    static func collect(_ body: HTTPBody?, upTo limit: Int) async throws -> Data {
        guard let body else { return Data() }
        if case .known(let length) = body.length, length > limit {
            throw CourierError(
                .responseTooLarge,
                message: "The response body has \(length) bytes; the limit is \(limit)."
            )
        }
        var data = Data()
        if case .known(let length) = body.length { data.reserveCapacity(Int(length)) }
        for try await chunk in body {
            guard data.count + chunk.count <= limit else {
                throw CourierError(
                    .responseTooLarge,
                    message: "The response body is larger than the limit of \(limit) bytes."
                )
            }
            data.append(contentsOf: chunk)
        }
        return data
    }
}
