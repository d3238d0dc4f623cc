import Foundation
import HTTPTypes
import OpenAPIRuntime

/// One request and its response through the transport, the response body delivered as the call
/// asked: read into memory, written to a file, or handed over unread.
///
/// This is the innermost step of every call (``Attempt`` runs it once per redirect hop). It uses
/// a transport's own capabilities where it has them: a ``FileTransferTransport`` moves files
/// itself, a ``BodyCollectingTransport`` reads a whole body in one step.
struct TransportExchange: Sendable {
    let transport: any ClientTransport
    /// The transport, when it can read whole bodies itself; looked up once per client.
    let collectingTransport: (any BodyCollectingTransport)?
    /// Where the response body goes.
    let delivery: ResponseDelivery
    /// Receives upload and download progress, when the caller asked for it.
    let progress: (@Sendable (TransferProgress) -> Void)?
    /// The file the call's request body streams from, with the body made of it: a transport that
    /// moves files reads the file itself as long as the body reaching it is still that one.
    let upload: (file: URL, body: HTTPBody)?
    /// The most bytes of a body read into memory.
    let bodyLimit: Int

    /// Sends `request` to `origin` and delivers its response body.
    /// - Returns: The response and its body: in memory (one chunk), unread for a successful
    ///   stream, or `nil` when a successful body went to a file.
    nonisolated(nonsending) func send(_ request: HTTPRequest, body: HTTPBody?, origin: URL, name: String) async throws -> (HTTPResponse, HTTPBody?) {
        if let transfer = fileTransfer(request, body: body, origin: origin),
            let fileTransport = transport as? any FileTransferTransport
        {
            let (response, responseBody) = try await fileTransport.transfer(transfer)
            if let destination = transfer.destination, response.status.kind != .successful {
                return (response, HTTPBody(ResponseBody.readFailureBody(at: destination, upTo: bodyLimit)))
            }
            return (response, responseBody)
        }
        if case .memory = delivery, progress == nil, let collectingTransport {
            let (response, bytes) = try await collectingTransport.send(
                request,
                body: body,
                baseURL: origin,
                operationID: name,
                collectingUpTo: bodyLimit
            )
            return (response, Self.body(of: bytes))
        }
        let (response, responseBody) = try await transfer(request, body: body, origin: origin, name: name)
        switch delivery {
        case .file(let destination) where response.status.kind == .successful:
            try await ResponseBody.write(responseBody, to: destination)
            return (response, nil)
        case .stream where response.status.kind == .successful:
            return (response, responseBody)
        default:
            return (response, Self.body(of: try await ResponseBody.bytes(of: responseBody, upTo: bodyLimit)))
        }
    }

    /// A body read into memory, as the chain passes it on: none when it is empty.
    private static func body(of bytes: HTTPBody.ByteChunk) -> HTTPBody? {
        bytes.isEmpty ? nil : HTTPBody(bytes)
    }

    /// The request through `ClientTransport.send`, both bodies reporting progress when the call
    /// asked for it; the response body is not read yet.
    nonisolated(nonsending) private func transfer(_ request: HTTPRequest, body: HTTPBody?, origin: URL, name: String) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await transport.send(
            request,
            body: body.map { ProgressReportingBody.wrap($0, direction: .upload, report: progress) },
            baseURL: origin,
            operationID: name
        )
        let reported = responseBody.map {
            ProgressReportingBody.wrap(
                $0,
                direction: .download,
                expectedLength: ContentLength.value(in: response.headerFields),
                report: progress
            )
        }
        return (response, reported)
    }

    /// The exchange as a file transfer, when it moves a file: its body is still the file the call
    /// started with, or its response goes to a file.
    private func fileTransfer(_ request: HTTPRequest, body: HTTPBody?, origin: URL) -> FileTransfer? {
        let bodyFile = upload.flatMap { $0.body === body ? $0.file : nil }
        let destination = delivery.destination
        guard bodyFile != nil || destination != nil else { return nil }
        return FileTransfer(
            request: request,
            body: bodyFile == nil ? body : nil,
            bodyFile: bodyFile,
            origin: origin,
            destination: destination,
            bodyLimit: bodyLimit,
            progress: progress
        )
    }
}
