import Hummingbird
import NIOCore

/// Reads a response body the server has built into one buffer, for middleware that rewrites it.
enum BodyCollector {
    static func collect(_ body: ResponseBody) async throws -> ByteBuffer {
        let sink = Sink()
        try await body.write(sink)
        return sink.buffer
    }

    private final class Sink: ResponseBodyWriter {
        var buffer = ByteBuffer()

        func write(_ buffer: ByteBuffer) async throws {
            var incoming = buffer
            self.buffer.writeBuffer(&incoming)
        }

        func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
