import Foundation
import HTTPTypes
import OpenAPIRuntime

extension Client {
    /// Sends a prepared request through the middleware chain and the transport.
    /// - Returns: The response and its body: in memory, unread (`.stream`), or empty when a
    ///   successful body went to a file.
    @inline(__always)
    func exchange(
        _ prepared: PreparedRequest,
        configuration snapshot: ConfigurationSnapshot,
        delivery: ResponseDelivery = .memory,
        progress: (@Sendable (TransferProgress) -> Void)?,
        collected: CollectedBody? = nil,
        record: ExchangeRecord? = nil
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var context = MiddlewareContext(
            name: prepared.name,
            origin: prepared.origin,
            requiresAuthentication: prepared.requiresAuthentication,
            timeout: prepared.timeout
        )
        context.progress = progress
        context.credentialFields = snapshot.hops.credentialFields
        context.delivery = delivery
        context.collected = collected
        // Middleware such as authentication asks where a response came from.
        context.record = record ?? (snapshot.value.middleware.isEmpty ? nil : ExchangeRecord())
        var body = prepared.body.map { HTTPBody($0) }
        if let file = prepared.bodyFile {
            let fileBody = try FileBody.body(for: file)
            context.upload = (file, fileBody)
            body = fileBody
        }
        let limits = Limits(
            body: snapshot.value.maximumResponseBodySize,
            hops: snapshot.hops,
            ownTask: !snapshot.value.attemptsRunInCallTask
        )
        return try await MiddlewareChain.run(
            snapshot.value.middleware,
            request: prepared.request,
            body: body,
            context: context
        ) { request, body, context in
            try await self.attempt(request, body: body, context: context, limits: limits)
        }
    }

    /// Sends a prepared request and reads the whole response body into memory: what ``send(_:)``
    /// needs.
    ///
    /// Without middleware the bytes come straight from the transport (no body object is made of
    /// them to pass through a chain; an ``InMemoryTransport`` reads them itself when no progress is
    /// reported); with middleware the chain runs as in
    /// ``exchange(_:configuration:delivery:progress:collected:record:)`` and the bytes the attempt read
    /// are taken back when the chain returns the body it was given.
    @inline(__always)
    func exchangeInMemory(
        _ prepared: PreparedRequest,
        configuration snapshot: ConfigurationSnapshot,
        progress: (@Sendable (TransferProgress) -> Void)?,
        record: ExchangeRecord? = nil
    ) async throws -> (HTTPResponse, HTTPBody.ByteChunk) {
        let bodyLimit = snapshot.value.maximumResponseBodySize
        guard snapshot.value.middleware.isEmpty, prepared.bodyFile == nil else {
            let collected = CollectedBody()
            let (response, body) = try await exchange(
                prepared,
                configuration: snapshot,
                progress: progress,
                collected: collected,
                record: record
            )
            if let bytes = collected.bytes(of: body) { return (response, bytes) }
            return (response, try await Self.collectBytes(body, upTo: bodyLimit))
        }
        // Built in place, as in `exchange`: a shared helper returning it costs retains per call.
        var context = MiddlewareContext(
            name: prepared.name,
            origin: prepared.origin,
            requiresAuthentication: prepared.requiresAuthentication,
            timeout: prepared.timeout
        )
        context.progress = progress
        context.credentialFields = snapshot.hops.credentialFields
        context.record = record
        let transport = self.transport
        let inMemoryTransport = progress == nil ? self.inMemoryTransport : nil
        return try await Self.followingRedirects(
            prepared.request,
            body: prepared.body.map { HTTPBody($0) },
            context: context,
            hops: snapshot.hops
        ) { request, body, context in
            if let inMemoryTransport {
                return try await inMemoryTransport.sendInMemory(
                    request,
                    body: body,
                    baseURL: context.origin,
                    operationID: context.name,
                    upTo: bodyLimit
                )
            }
            let (response, responseBody) = try await Self.transfer(request, body: body, context: context, through: transport)
            return (response, try await Self.collectBytes(responseBody, upTo: bodyLimit))
        }
    }

    /// How far one attempt may go.
    struct Limits: Sendable {
        /// Bytes of a body read into memory.
        var body: Int
        /// Redirects, credentials and cookies of each request.
        var hops: HopPolicy
        /// Whether the attempt runs in a task of its own with its deadline, or in the call's task,
        /// which then carries the deadline (see ``Client/run(_:configuration:_:)``).
        var ownTask: Bool
    }

    /// The error of an attempt that ran out of time.
    static func timeoutError(after timeout: Duration) -> CourierError {
        CourierError(.timedOut, message: "No complete response within \(timeout).")
    }

    /// One attempt through the transport, following redirects, ending when the response is
    /// delivered as asked (a body in memory, written to a file, or a stream's head) or when the
    /// attempt's timeout passes (then ``CourierError/Kind/timedOut``).
    func attempt(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        limits: Limits
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let transport = self.transport
        guard limits.ownTask else {
            return try await Self.deliver(request, body: body, context: context, limits: limits, through: transport)
        }
        return try await attempts.perform(deadline: .now + context.timeout, timeoutError: Self.timeoutError(after: context.timeout)) {
            try await Self.deliver(request, body: body, context: context, limits: limits, through: transport)
        }
    }

    /// The attempt's work: the request through the transport, following redirects.
    private static func deliver(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        limits: Limits,
        through transport: any ClientTransport
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await followingRedirects(request, body: body, context: context, hops: limits.hops) { request, body, context in
            try await send(request, body: body, context: context, bodyLimit: limits.body, through: transport)
        }
    }

    /// Sends the request, and again to each redirect's target (see ``Configuration/redirectLimit``),
    /// each request with the jar's cookies and each response's cookies stored; the call's
    /// `record`, when it keeps one, learns the final URL and the attempt.
    @inline(__always)
    private static func followingRedirects<Delivered>(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        hops: HopPolicy,
        send: (HTTPRequest, HTTPBody?, MiddlewareContext) async throws -> (HTTPResponse, Delivered)
    ) async throws -> (HTTPResponse, Delivered) {
        var (request, body, context) = (request, body, context)
        // Targets already requested, filled in at the first redirect (most responses are not one).
        var visited: Set<String> = []
        while true {
            let url = hops.cookieJar != nil ? Self.url(of: request, at: context.origin) : nil
            let sent = url.map { hops.addingCookies(to: request, at: $0) } ?? request
            let (response, responseBody) = try await send(sent, body, context)
            if let url { hops.cookieJar?.store(from: response.headerFields, for: url) }
            context.record?.delivered(target: request.path, origin: context.origin, attempt: context.attempt)
            guard hops.redirectLimit > 0,
                let redirect = try Redirect.next(
                    after: response,
                    to: request,
                    origin: context.origin,
                    bodyIsReplayable: body.map { $0.iterationBehavior == .multiple } ?? true,
                    credentialFields: hops.credentialFields,
                    allowsInsecure: hops.allowsInsecureRedirects
                )
            else { return (response, responseBody) }
            if visited.isEmpty { visited.insert(Self.target(of: request, at: context.origin)) }
            let target = Self.target(of: redirect.request, at: redirect.origin)
            var failure: CourierError?
            if visited.count > hops.redirectLimit {
                failure = CourierError(.tooManyRedirects, message: "Stopped after \(hops.redirectLimit) redirects.")
            } else if !visited.insert(target).inserted {
                failure = CourierError(.tooManyRedirects, message: "The server redirected in a loop, back to a URL already requested.")
            }
            if var failure {
                failure.status = response.status
                failure.responseHeaderFields = response.headerFields
                throw failure
            }
            request = redirect.request
            context.origin = redirect.origin
            if redirect.dropsBody { body = nil }
        }
    }

    /// The full URL of `request` below `origin`.
    static func url(of request: HTTPRequest, at origin: URL) -> URL? {
        URL(string: origin.absoluteString + (request.path ?? "/"))
    }

    /// What a redirect loop repeats: method, origin and path.
    private static func target(of request: HTTPRequest, at origin: URL) -> String {
        "\(request.method) \(origin.absoluteString)\(request.path ?? "/")"
    }

    /// One request and response through the transport, the body delivered as `context` asks.
    @inline(__always)
    private static func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        bodyLimit: Int,
        through transport: any ClientTransport
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if let transfer = Self.fileTransfer(request, body: body, context: context, bodyLimit: bodyLimit),
            let fileTransport = transport as? any FileTransferTransport
        {
            let (response, responseBody) = try await fileTransport.transfer(transfer)
            if let destination = transfer.destination, response.status.kind != .successful {
                return (response, Optional(HTTPBody(try Self.readFailureBody(at: destination, upTo: bodyLimit))))
            }
            return (response, responseBody)
        }
        let (response, reported) = try await transfer(request, body: body, context: context, through: transport)
        switch context.delivery {
        case .file(let destination) where response.status.kind == .successful:
            try await Self.write(reported, to: destination)
            return (response, nil)
        case .stream where response.status.kind == .successful:
            return (response, reported)
        default:
            let bytes = try await collectBytes(reported, upTo: bodyLimit)
            return (response, context.collected?.body(of: bytes) ?? HTTPBody(bytes))
        }
    }

    /// One request and response through the transport, both bodies reporting progress when the
    /// call asked for it; the response body is not read yet.
    @inline(__always)
    private static func transfer(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        through transport: any ClientTransport
    ) async throws -> (HTTPResponse, HTTPBody?) {
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
        return (response, reported)
    }

    /// The attempt as a file transfer, when it moves a file: its body is still the file the call
    /// started with, or its response goes to a file.
    private static func fileTransfer(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        bodyLimit: Int
    ) -> FileTransfer? {
        let bodyFile = context.upload.flatMap { $0.body === body ? $0.file : nil }
        let destination = context.delivery.destination
        guard bodyFile != nil || destination != nil else { return nil }
        return FileTransfer(
            request: request,
            body: bodyFile == nil ? body : nil,
            bodyFile: bodyFile,
            origin: context.origin,
            destination: destination,
            bodyLimit: bodyLimit,
            progress: context.progress
        )
    }

    /// Reads a body into memory, refusing to go past `limit` bytes.
    static func collect(_ body: HTTPBody?, upTo limit: Int) async throws -> Data {
        Data(try await collectBytes(body, upTo: limit))
    }

    /// Reads a body into memory, refusing to go past `limit` bytes; a body that arrives in one
    /// chunk comes back as that chunk, not copied.
    @inline(__always)
    static func collectBytes(_ body: HTTPBody?, upTo limit: Int) async throws -> HTTPBody.ByteChunk {
        guard let body else { return [] }
        var expectedLength: Int?
        if case .known(let length) = body.length {
            guard length <= limit else { throw CourierError.bodyTooLarge(length: length, limit: limit) }
            expectedLength = Int(length)
        }
        var bytes: HTTPBody.ByteChunk = []
        for try await chunk in body {
            try Task.checkCancellation()
            guard bytes.count + chunk.count <= limit else { throw CourierError.bodyTooLarge(length: nil, limit: limit) }
            if bytes.isEmpty {
                bytes = chunk
            } else {
                if let expectedLength { bytes.reserveCapacity(expectedLength) }
                bytes.append(contentsOf: chunk)
            }
        }
        return bytes
    }

    /// Writes a body to `file` as it arrives, replacing what the file held.
    static func write(_ body: HTTPBody?, to file: URL) async throws {
        let handle: FileHandle
        do {
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown)
            }
            handle = try FileHandle(forWritingTo: file)
        } catch {
            throw CourierError(.fileAccessFailed, message: "Cannot write to \(file.path).", underlyingError: error)
        }
        defer { try? handle.close() }
        guard let body else { return }
        for try await chunk in body {
            // A transport with data buffered hands it over without suspending, so the loop checks
            // for cancellation itself.
            try Task.checkCancellation()
            do {
                try handle.write(contentsOf: chunk)
            } catch {
                throw CourierError(.fileAccessFailed, message: "Writing to \(file.path) failed.", underlyingError: error)
            }
        }
    }

    /// The body of a failed download, which the transport left in `file`, read back for error
    /// mapping; the file is removed.
    private static func readFailureBody(at file: URL, upTo limit: Int) throws -> Data {
        defer { try? FileManager.default.removeItem(at: file) }
        guard let handle = try? FileHandle(forReadingFrom: file) else { return Data() }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: limit)) ?? Data()
    }
}
