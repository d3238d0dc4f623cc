extension CourierError {
    /// The error for a response whose body stopped early because of `error`: a connection that
    /// closed or reset after the head arrived left the response incomplete
    /// (``CourierError/Kind/invalidResponse``), the same on every transport; cancellation, a
    /// timeout or a size limit keep their kinds.
    package static func incompleteBody(after error: any Error) -> CourierError {
        let courierError = CourierError(error)
        guard [.notConnected, .transportFailed].contains(courierError.kind) else { return courierError }
        return CourierError(
            .invalidResponse,
            message: "The connection ended before the whole response body arrived.",
            underlyingError: error
        )
    }

    /// A response body announced (`Content-Length`) or found to be larger than `limit` bytes.
    package static func bodyTooLarge(length: Int64?, limit: Int) -> CourierError {
        guard let length else {
            return CourierError(.responseTooLarge, message: "The response body is larger than the limit of \(limit) bytes.")
        }
        return CourierError(.responseTooLarge, message: "The response body has \(length) bytes; the limit is \(limit).")
    }
}
