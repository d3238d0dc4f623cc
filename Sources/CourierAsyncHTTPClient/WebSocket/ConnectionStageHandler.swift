// Compiled with the package trait `AsyncHTTPClient`; without it this module is empty.
#if AsyncHTTPClient
import Courier
import NIOCore

/// Marks one stage of opening a socket as done: the user event that ends it (the TLS handshake
/// completed, a proxy's tunnel established), or the first error, end of input or removal from
/// the pipeline, whichever comes first.
///
/// Its promise exists only while it sits in a pipeline (made in `handlerAdded`), and whatever
/// happens to the channel afterwards completes it: a stage never leaves a promise behind.
final class ConnectionStageHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    /// Whether an inbound user event ends the stage.
    private let isCompletion: (Any) -> Bool
    /// What the stage is, for the error when the connection ends before it does.
    private let stage: String
    private var promise: EventLoopPromise<Void>?
    private var outcome: Result<Void, any Error>?

    /// - Parameters:
    ///   - stage: What the stage is ("the TLS handshake"), for its error.
    ///   - isCompletion: Whether an inbound user event ends the stage.
    init(stage: String, isCompletion: @escaping (Any) -> Bool) {
        self.stage = stage
        self.isCompletion = isCompletion
    }

    /// The stage's outcome: on the channel's event loop, once the handler is in the pipeline.
    var completion: EventLoopFuture<Void>? {
        promise?.futureResult
    }

    func handlerAdded(context: ChannelHandlerContext) {
        promise = context.eventLoop.makePromise(of: Void.self)
        if let outcome { promise?.completeWith(outcome) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        complete(.failure(ended))
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if isCompletion(event) {
            complete(.success(()))
        } else if let event = event as? ChannelEvent, event == .inputClosed {
            complete(.failure(ended))
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        complete(.failure(error))
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        complete(.failure(ended))
        context.fireChannelInactive()
    }

    /// The error of a connection that ended before the stage did.
    private var ended: CourierError {
        CourierError(.notConnected, message: "The connection ended during \(stage).")
    }

    private func complete(_ result: Result<Void, any Error>) {
        guard outcome == nil else { return }
        outcome = result
        promise?.completeWith(result)
    }
}

extension Channel {
    /// Adds `handlers` and a ``ConnectionStageHandler`` after them, and waits for the stage.
    /// - Parameters:
    ///   - stage: What the stage is, for its error.
    ///   - leaving: Whether `handlers` leave the pipeline once the stage is done (a proxy's
    ///     handshake), or stay (TLS).
    ///   - makeHandlers: The handlers that run the stage, made on the event loop.
    ///   - isCompletion: Whether an inbound user event ends the stage.
    /// - Throws: The first error of the stage, or ``Courier/CourierError/Kind/notConnected`` when the
    ///   connection ended first. The stage's handler leaves the pipeline once the stage is done;
    ///   `handlers` stay.
    func runStage(
        _ stage: String,
        leaving: Bool = false,
        handlers makeHandlers: @escaping @Sendable () throws -> [any ChannelHandler & RemovableChannelHandler],
        isCompletion: @escaping @Sendable (Any) -> Bool
    ) async throws {
        try await eventLoop.flatSubmit { [self] () -> EventLoopFuture<Void> in
            do {
                let handlers = try makeHandlers()
                try self.pipeline.syncOperations.addHandlers(handlers)
                let handler = ConnectionStageHandler(stage: stage, isCompletion: isCompletion)
                try self.pipeline.syncOperations.addHandler(handler)
                guard let completion = handler.completion else {
                    return self.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel)
                }
                return completion.assumeIsolated().flatMap {
                    for added in leaving ? handlers : [] {
                        self.pipeline.syncOperations.removeHandler(added, promise: nil)
                    }
                    return self.pipeline.syncOperations.removeHandler(handler)
                }.nonisolated()
            } catch {
                return self.eventLoop.makeFailedFuture(error)
            }
        }.get()
    }
}
#endif
