import HTTPTypes
import OpenAPIRuntime

/// A body that reports each chunk passing through it as ``TransferProgress``.
///
/// Chunks larger than 64 KiB are passed on in 64 KiB pieces, so a body built from one large
/// buffer still reports progress as the transport writes it.
struct ProgressReportingBody: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk

    static let pieceSize = 64 * 1024

    let base: HTTPBody
    let direction: TransferProgress.Direction
    let total: Int64?
    let report: @Sendable (TransferProgress) -> Void

    /// `body` reporting to `report`, or `body` itself when nobody listens.
    static func wrap(
        _ body: HTTPBody,
        direction: TransferProgress.Direction,
        expectedLength: Int64? = nil,
        report: (@Sendable (TransferProgress) -> Void)?
    ) -> HTTPBody {
        guard let report else { return body }
        var total = expectedLength
        if case .known(let length) = body.length { total = length }
        let sequence = ProgressReportingBody(base: body, direction: direction, total: total, report: report)
        return HTTPBody(sequence, length: body.length, iterationBehavior: body.iterationBehavior)
    }

    func makeAsyncIterator() -> Iterator {
        report(TransferProgress(direction: direction, completedBytes: 0, totalBytes: total))
        return Iterator(base: base.makeAsyncIterator(), owner: self)
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: HTTPBody.AsyncIterator
        let owner: ProgressReportingBody
        var pending: ArraySlice<UInt8> = []
        var completed: Int64 = 0

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            if pending.isEmpty {
                guard let chunk = try await base.next() else { return nil }
                pending = chunk
            }
            let piece = pending.prefix(ProgressReportingBody.pieceSize)
            pending = pending.dropFirst(piece.count)
            completed += Int64(piece.count)
            owner.report(TransferProgress(direction: owner.direction, completedBytes: completed, totalBytes: owner.total))
            return piece
        }
    }
}

extension HTTPBody {
    /// This body reporting each chunk to `report` as it passes, or the body itself when nobody
    /// listens: for transports in other modules of the package.
    package func reportingProgress(
        _ direction: TransferProgress.Direction,
        expectedLength: Int64? = nil,
        to report: (@Sendable (TransferProgress) -> Void)?
    ) -> HTTPBody {
        ProgressReportingBody.wrap(self, direction: direction, expectedLength: expectedLength, report: report)
    }
}
