import Foundation
import Hummingbird
import NIOCore

/// Applies a request's ``Fault`` to its response: the reference server's fault injection.
struct FaultInjectionMiddleware: RouterMiddleware {
    typealias Context = ReferenceRequestContext

    /// Thrown by a body writer to make the server drop the connection mid-body.
    struct InjectedDisconnect: Error {}

    /// Counts every request that reaches the routes (TLS tests prove a refused handshake sent none).
    let requests: RequestCounter

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        requests.increment()
        let text = request.headerValue("X-Fault") ?? request.uri.queryParameters["_fault"].map(String.init)
        guard let fault = Fault(text) else { return try await next(request, context) }
        if let delay = fault.delay { try await Task.sleep(for: delay) }
        if fault.close {
            try? await context.channel.close()
            throw InjectedDisconnect()
        }
        if fault.noContent { return Response(status: .noContent) }
        if let status = fault.status {
            let message = fault.message ?? "Injected failure"
            return request.uri.path.hasPrefix("/3/")
                ? JSONResponse.tmdbError(code: status, message: message, status: .init(code: status))
                : JSONResponse.message(message, status: .init(code: status))
        }
        if let size = fault.hugeSize { return Self.hugeBody(size: size, announced: !fault.unannounced) }
        if let size = fault.gzipBombSize { return Self.gzipBomb(size: size) }
        if fault.empty {
            return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer()))
        }
        if fault.malformed {
            return Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "{\"id\": 1, \"name\": \"Ada\", \"email\": "))
            )
        }
        if fault.wrongShape {
            return Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"unexpected": [1, 2, 3], "id": "not a number"}"#))
            )
        }
        var response = try await next(request, context)
        if let interval = fault.trickleInterval {
            let buffer = try await BodyCollector.collect(response.body)
            response.headers[.contentLength] = nil
            response.body = ResponseBody(contentLength: buffer.readableBytes) { writer in
                for index in buffer.readerIndex..<buffer.writerIndex {
                    guard let byte = buffer.getSlice(at: index, length: 1) else { break }
                    try await writer.write(byte)
                    try await Task.sleep(for: interval)
                }
                try await writer.finish(nil)
            }
        }
        if let coding = fault.coding, response.headers[.contentEncoding] == nil {
            response = try await CompressionMiddleware.compress(response, with: coding)
        }
        if fault.wrongContentType {
            response.headers[.contentType] = "text/html; charset=utf-8"
        }
        if fault.truncate || fault.reset {
            let buffer = try await BodyCollector.collect(response.body)
            let half = buffer.getSlice(at: buffer.readerIndex, length: max(1, buffer.readableBytes / 2)) ?? buffer
            let declared = fault.truncate ? buffer.readableBytes : nil
            response.headers[.contentLength] = nil
            response.body = ResponseBody(contentLength: declared) { writer in
                try await writer.write(half)
                throw InjectedDisconnect()
            }
        }
        return response
    }

    /// A JSON array of spaces, `size` bytes long, written in 64 KiB chunks; with its length in
    /// `Content-Length` when `announced`, chunked otherwise.
    /// `size` zero bytes as a gzip body declared as JSON (see ``GzipBomb``): a compression bomb.
    static func gzipBomb(size: Int) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "application/json", .contentEncoding: "gzip"],
            body: ResponseBody { writer in
                try await GzipBomb.write(size: size) { try await writer.write($0) }
                try await writer.finish(nil)
            }
        )
    }

    static func hugeBody(size: Int, announced: Bool) -> Response {
        let size = max(size, 2)
        return Response(
            status: .ok,
            headers: [.contentType: "application/json"],
            body: ResponseBody(contentLength: announced ? size : nil) { writer in
                let chunkSize = 64 * 1024
                var written = 0
                while written < size {
                    let count = min(chunkSize, size - written)
                    var chunk = ByteBuffer(repeating: UInt8(ascii: " "), count: count)
                    if written == 0 { chunk.setInteger(UInt8(ascii: "["), at: 0) }
                    if written + count == size { chunk.setInteger(UInt8(ascii: "]"), at: count - 1) }
                    try await writer.write(chunk)
                    written += count
                }
                try await writer.finish(nil)
            }
        )
    }
}
