import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The last step of every call's middleware chain: one attempt at the request, following
/// redirects, within the attempt's timeout.
///
/// Each time a middleware calls `next` (a retry, a repeat after a token refresh) is one attempt.
/// It runs in the caller's task, with an ``ExchangeInterruption`` that its deadline and
/// ``Client/cancelAll()`` fire and the transport obeys, so that a timed-out attempt ends with
/// ``CourierError/Kind/timedOut`` while the call goes on (a retry may follow). One per call,
/// shared by its attempts. An attempt at a `GET` identical to one in flight joins it instead
/// (``RequestCoalescer``). Under ``Configuration/maximumCallsPerHost``, an attempt first waits
/// for its turn (``HostCallQueue``) and holds its host's slot until it returns: a call waiting in
/// middleware (a token refresh, a back-off) holds none, so a refresh sent through the same client
/// always finds one.
final class Attempt: Sendable {
    /// Each redirect hop's request and response.
    let exchange: TransportExchange
    /// Redirects, credentials and cookies of each hop.
    let hops: HopPolicy
    /// The call, whose registry enforces each attempt's deadline and reaches it from `cancelAll()`.
    let call: InFlightCall
    /// Where identical `GET`s in flight are sent once; `nil` when the client does not coalesce.
    let coalescer: RequestCoalescer?
    /// The line attempts wait in under a per-host limit; `nil` without one.
    let hostCalls: HostCallQueue?

    init(exchange: TransportExchange, hops: HopPolicy, call: InFlightCall, coalescer: RequestCoalescer?, hostCalls: HostCallQueue? = nil) {
        self.exchange = exchange
        self.hops = hops
        self.call = call
        self.coalescer = coalescer
        self.hostCalls = hostCalls
    }

    /// Runs one attempt: the signature of ``MiddlewareNext``, so that it ends the chain.
    /// - Returns: The last hop's response, with the URL it came from and the attempts so far
    ///   (the context's number, plus any the transport made by itself).
    func run(_ request: HTTPRequest, body: HTTPBody?, context: MiddlewareContext) async throws -> MiddlewareResponse {
        guard let hostCalls else { return try await attempt(request, body: body, context: context) }
        let ticket = hostCalls.admit(host: context.origin.absoluteString.lowercased(), priority: context.priority)
        defer { hostCalls.release(ticket) }
        let clock = context.elapsedClock
        try await call.waitForTurn(
            ticket,
            in: hostCalls,
            deadline: clock.now() + context.timeout,
            clock: clock,
            timeoutError: Self.timeoutError(after: context.timeout)
        )
        return try await attempt(request, body: body, context: context)
    }

    /// The attempt itself, once it may run.
    private func attempt(_ request: HTTPRequest, body: HTTPBody?, context: MiddlewareContext) async throws -> MiddlewareResponse {
        if let coalescer, RequestCoalescer.coalesces(request, body: body, delivery: exchange.delivery) {
            // The first caller sends, in its own task as below; identical callers meanwhile wait.
            return try await coalescer.response(for: request, context: context, call: call, limit: exchange.delivery.limit) { interruption in
                try await self.followingRedirects(request, body: body, context: context, interruption: interruption)
            }
        }
        let clock = context.elapsedClock
        return try await call.interruptible(
            deadline: clock.now() + context.timeout,
            clock: clock,
            timeoutError: Self.timeoutError(after: context.timeout)
        ) { interruption in
            try await self.followingRedirects(request, body: body, context: context, interruption: interruption)
        }
    }

    /// The error of an attempt that ran out of time.
    static func timeoutError(after timeout: Duration) -> CourierError {
        CourierError(.timedOut, message: "No complete response within \(timeout).")
    }

    /// Sends the request, and again to each redirect's target (see ``Configuration/redirectLimit``),
    /// each request with the jar's cookies and each response's cookies stored; `interruption` ends
    /// whichever exchange is under way.
    nonisolated(nonsending) private func followingRedirects(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        interruption: ExchangeInterruption
    ) async throws -> MiddlewareResponse {
        var (request, origin) = (request, context.origin)
        var payload = RequestPayload.passedOn(context.payload, as: body)
        // Targets already requested, filled in at the first redirect (most responses are not one).
        var visited: Set<String> = []
        // Sends the transport made by itself beyond one per hop.
        var resends = 0
        while true {
            let url = hops.cookieJar != nil ? Self.url(of: request, at: origin) : nil
            let sent = url.map { hops.addingCookies(to: request, at: $0) } ?? request
            let delivered = try await exchange.send(
                sent,
                payload: payload,
                origin: origin,
                name: context.name,
                isCachedByClient: context.isCachedByClient,
                interruption: interruption
            )
            let response = delivered.response
            resends += max(0, delivered.attempts - 1)
            if let url { hops.cookieJar?.store(from: response.headerFields, for: url) }
            guard hops.redirectLimit > 0,
                let redirect = try Redirect.next(
                    after: response,
                    to: request,
                    origin: origin,
                    hasBody: payload != nil,
                    bodyIsReplayable: payload?.canBeSentAgain ?? true,
                    credentialFields: hops.credentialFields,
                    allowsInsecure: hops.allowsInsecureRedirects,
                    allowsCrossOriginBody: hops.allowsCrossOriginBodyRedirects
                )
            else {
                return MiddlewareResponse(response: delivered, origin: origin, path: request.path, attempts: context.attempt + resends)
            }
            if visited.isEmpty { visited.insert(Self.target(of: request, at: origin)) }
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
            origin = redirect.origin
            if redirect.dropsBody { payload = nil }
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
}
