import Foundation
import OpenAPIRuntime

extension SpooledBody {
    /// What a ``SpooledBody`` holds, and the decisions about it; its methods run under the body's
    /// lock and return what to do outside it.
    ///
    /// Unread bytes are the pieces in memory followed by the file's range `fileStart..<fileEnd`.
    /// A piece goes to memory only while that range is empty, so memory always comes first; the
    /// reader advances `fileStart` only after reading, so the writer never reuses a range being
    /// read, and starts the file over only when it has all been read.
    struct State {
        /// Where a piece that arrived goes.
        enum Store {
            /// Nowhere: the body ended or its reader stopped.
            case dropped
            /// Nowhere: the reader is more than the disk limit behind; end the body.
            case overflow
            /// Into memory; wake the reader if it waits.
            case kept(waiter: CheckedContinuation<Void, Never>?)
            /// Into the file (created first when `nil`) at `offset`, emptied first if `emptied`.
            case spill(SpoolFile?, offset: Int, emptied: Bool)
        }

        /// What the reader gets next.
        enum Take {
            case chunk(HTTPBody.ByteChunk)
            case read(SpoolFile, offset: Int, count: Int)
            case end(Result<Void, any Error>)
            case wait
        }

        private var memory: [HTTPBody.ByteChunk] = []
        private var memoryStart = 0
        private var memoryBytes = 0
        private(set) var peakMemoryBytes = 0
        private var file: SpoolFile?
        private var fileStart = 0
        private var fileEnd = 0
        /// No temporary file could be created: every piece stays in memory.
        private var fileUnavailable = false
        /// How the body ended, once the writer finished it.
        var end: Result<Void, any Error>?
        /// The reader stopped before the end.
        private(set) var terminated = false
        /// The reader was told of `end`.
        private var delivered = false
        private var waiter: CheckedContinuation<Void, Never>?

        private var fileDrained: Bool { fileStart == fileEnd }

        mutating func store(_ data: Data, memoryLimit: Int, diskLimit: Int) -> Store {
            guard end == nil, !terminated else { return .dropped }
            if fileDrained, memoryBytes + data.count <= memoryLimit || fileUnavailable {
                append(data)
                return .kept(waiter: takeWaiter())
            }
            guard fileEnd - fileStart + data.count <= diskLimit else { return .overflow }
            let emptied = fileDrained && fileEnd > 0
            if emptied { (fileStart, fileEnd) = (0, 0) }
            return .spill(file, offset: fileEnd, emptied: emptied)
        }

        /// Keeps `data` in memory from now on, there being no file to put it in.
        mutating func keepInMemory(_ data: Data) -> CheckedContinuation<Void, Never>? {
            fileUnavailable = true
            guard end == nil, !terminated else { return nil }
            append(data)
            return takeWaiter()
        }

        /// `count` bytes were written to `file` at `offset`.
        mutating func spilled(_ count: Int, to file: SpoolFile, at offset: Int) -> CheckedContinuation<Void, Never>? {
            guard !terminated else { return nil }
            self.file = file
            fileEnd = offset + count
            return takeWaiter()
        }

        mutating func take(readSize: Int) -> Take {
            if memoryStart < memory.count {
                let chunk = memory[memoryStart]
                memory[memoryStart] = []
                memoryStart += 1
                memoryBytes -= chunk.count
                if memoryStart == memory.count {
                    memory.removeAll(keepingCapacity: true)
                    memoryStart = 0
                } else if memoryStart >= 64, memoryStart * 2 >= memory.count {
                    memory.removeFirst(memoryStart)
                    memoryStart = 0
                }
                return .chunk(chunk)
            }
            if !fileDrained, let file {
                return .read(file, offset: fileStart, count: min(readSize, fileEnd - fileStart))
            }
            guard !terminated, !delivered, let end else { return terminated || delivered ? .end(.success(())) : .wait }
            delivered = true
            file = nil
            return .end(end)
        }

        /// The reader read `count` bytes of the file at `offset`.
        mutating func consumed(_ count: Int, at offset: Int) {
            if !terminated, fileStart == offset { fileStart += count }
        }

        /// Records the reader's continuation. Returns `false` when there is something to take
        /// already: the caller resumes it at once.
        mutating func wait(_ continuation: CheckedContinuation<Void, Never>) -> Bool {
            guard memoryStart == memory.count, fileDrained, end == nil, !terminated else { return false }
            waiter = continuation
            return true
        }

        /// Forgets everything unread; the file closes when its last reader or writer lets go.
        mutating func terminate() {
            terminated = true
            memory = []
            memoryStart = 0
            memoryBytes = 0
            file = nil
            (fileStart, fileEnd) = (0, 0)
        }

        mutating func takeWaiter() -> CheckedContinuation<Void, Never>? {
            defer { waiter = nil }
            return waiter
        }

        private mutating func append(_ data: Data) {
            memory.append(Array(data)[...])
            memoryBytes += data.count
            peakMemoryBytes = max(peakMemoryBytes, memoryBytes)
        }
    }
}
