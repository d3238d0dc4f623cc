@testable import Courier
import Foundation
import TestSupport
import Testing

/// A streamed body over URLSession on Linux keeps a few MiB unread in memory, the rest on disk,
/// and hands all of it over in order; a reader that stops, stops the transfer.
@Suite("A spooled body holds a bounded amount in memory and loses nothing")
struct SpooledBodyTests {
    static let limits = SpooledBody.Limits(memory: 1000, readSize: 300, gauge: nil)

    /// Piece `index` of a body: `size` bytes that tell the pieces apart.
    static func piece(_ index: Int, size: Int = 97) -> Data {
        Data((0..<size).map { UInt8(truncatingIfNeeded: index &* 31 &+ $0) })
    }

    static func readAll(_ body: SpooledBody) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        while let chunk = try await body.next() { bytes += chunk }
        return bytes
    }

    @Test("pieces past the memory limit wait on disk and reach a late reader in order")
    func lateReader() async throws {
        let gauge = SpooledBody.Gauge()
        var limits = Self.limits
        limits.gauge = gauge
        let body = SpooledBody(limits: limits) {}
        let pieces = (0..<200).map { Self.piece($0) }
        for piece in pieces { body.append(piece) }
        body.finish(throwing: nil)

        #expect(try await Self.readAll(body) == Array(pieces.joined()))
        #expect(body.peakMemoryBytes <= 1000)
        #expect(gauge.peakMemoryBytes <= 1000)
        #expect(gauge.spilledBytes >= 200 * 97 - 1000)
    }

    @Test("a reader too far behind gets what came before, then responseTooLarge, and the task stops")
    func readerTooFarBehind() async throws {
        var limits = Self.limits
        limits.disk = 2000
        let stops = LockedBox(0)
        let body = SpooledBody(limits: limits) { stops.increment() }
        let pieces = (0..<40).map { Self.piece($0, size: 100) }
        for piece in pieces { body.append(piece) }
        #expect(stops.value == 1, "the transfer stops once the file would pass its limit")

        var received: [UInt8] = []
        let error = await #expect(throws: CourierError.self) {
            while let chunk = try await body.next() { received += chunk }
        }
        #expect(error?.kind == .responseTooLarge)
        #expect(error?.message?.contains("AsyncHTTPClient") == true)
        // 1,000 bytes in memory and 2,000 on disk, in order; nothing after the overflow.
        #expect(received == Array(pieces.prefix(30).joined()))
    }

    @Test("a reader that keeps up now and then gets memory and file back in order")
    func interleaved() async throws {
        let body = SpooledBody(limits: Self.limits) {}
        var expected: [UInt8] = []
        var received: [UInt8] = []
        for round in 0..<30 {
            // Bursts that overflow memory, then reads that drain part or all of what waits.
            for index in 0..<(round % 7 * 5) {
                let piece = Self.piece(round * 100 + index, size: 13 + index * 17 % 400)
                body.append(piece)
                expected += piece
            }
            let reads = round % 3 == 0 ? Int.max : round % 5
            var done = 0
            while done < reads, received.count < expected.count, let chunk = try await body.next() {
                received += chunk
                done += 1
            }
            #expect(body.peakMemoryBytes <= 1000)
        }
        body.finish(throwing: nil)
        received += try await Self.readAll(body)
        #expect(received == expected)
    }

    @Test("a writer on another thread and a slower reader: every byte arrives, memory stays bounded")
    func concurrent() async throws {
        let body = SpooledBody(limits: Self.limits) {}
        let pieces = (0..<2000).map { Self.piece($0, size: 1 + $0 % 250) }
        let writer = Thread {
            for piece in pieces { body.append(piece) }
            body.finish(throwing: nil)
        }
        writer.start()
        var received: [UInt8] = []
        while let chunk = try await body.next() {
            received += chunk
            if received.count % 7 == 0 { await Task.yield() }
        }
        #expect(received == Array(pieces.joined()))
        #expect(body.peakMemoryBytes <= 1000)
    }

    @Test("an error ends the body after every piece that came before it")
    func error() async throws {
        struct Broken: Error {}
        let body = SpooledBody(limits: Self.limits) {}
        let pieces = (0..<30).map { Self.piece($0) }
        for piece in pieces { body.append(piece) }
        body.finish(throwing: Broken())
        var received: [UInt8] = []
        await #expect(throws: Broken.self) {
            while let chunk = try await body.next() { received += chunk }
        }
        #expect(received == Array(pieces.joined()))
        #expect(try await body.next() == nil)
    }

    @Test("a reader cancelled while it waits gets the end, and the task is stopped once")
    func cancelledWhileWaiting() async throws {
        let stops = LockedBox(0)
        let body = SpooledBody(limits: Self.limits) { stops.increment() }
        body.append(Self.piece(0))
        // The reader takes the one piece, then waits for more: cancelled before or during that
        // wait, it ends there.
        let reader = Task { try await Self.readAll(body) }
        for _ in 0..<10 { await Task.yield() }
        reader.cancel()
        #expect(try await reader.value.count == 97)
        #expect(stops.value == 1)
        body.append(Self.piece(1))
        body.terminate()
        #expect(stops.value == 1)
    }

    @Test("a body dropped unread, or its iterator dropped early, stops the task; a finished one does not")
    func dropped() async throws {
        let stops = LockedBox(0)
        do {
            let body = SpooledBody(limits: Self.limits) { stops.increment() }
            body.append(Self.piece(0))
            _ = ReaderStoppingChunks(body: body)
        }
        #expect(stops.value == 1)
        do {
            let body = SpooledBody(limits: Self.limits) { stops.increment() }
            for index in 0..<30 { body.append(Self.piece(index)) }
            let chunks = ReaderStoppingChunks(body: body)
            var iterator = chunks.makeAsyncIterator()
            _ = try await iterator.next()
        }
        #expect(stops.value == 2)
        do {
            let body = SpooledBody(limits: Self.limits) { stops.increment() }
            for index in 0..<30 { body.append(Self.piece(index)) }
            body.finish(throwing: nil)
            for try await _ in ReaderStoppingChunks(body: body) {}
        }
        #expect(stops.value == 2)
    }
}
