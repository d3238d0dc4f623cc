// Compiled with the package trait `AsyncHTTPClient`; without it this module is empty.
#if AsyncHTTPClient
import AsyncHTTPClient
import NIOCore
import OpenAPIRuntime

/// A request body as AsyncHTTPClient's async API pulls it, in `ByteBuffer`s, that produces a piece
/// only after the event loops have taken the pieces before it.
///
/// AsyncHTTPClient hands each piece to the connection's event loop without waiting for it, and
/// pauses the body only once that loop has found the channel full; until the loop runs, the task
/// reading the body goes on reading. That lag let a 1 GiB upload in 256 KiB pieces raise the
/// client's peak memory by 8–62 MiB (117 in 64 KiB pieces). Waiting before each piece for every
/// loop of the group (the connection's is one of them) to run what was queued before lets the
/// channel's writability pause the body in time: a 1 GiB upload then raises the peak by about
/// 3 MiB, the channel's high-water mark plus a few pieces and what the allocator keeps.
struct LoopPacedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let base: HTTPBody
    let loops: [any EventLoop]

    /// `body` read at the pace of `group`'s event loops.
    init(_ body: HTTPBody, group: any EventLoopGroup) {
        self.base = body
        self.loops = Array(group.makeIterator())
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), loops: loops)
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: HTTPBody.AsyncIterator
        let loops: [any EventLoop]
        var started = false

        mutating func next() async throws -> ByteBuffer? {
            if started {
                for loop in loops { try await loop.submit {}.get() }
            }
            started = true
            return try await base.next().map { ByteBuffer(bytes: $0) }
        }
    }
}
#endif
