import Foundation

/// Opens `stream` and reads it to its end in pieces of at most `pieceSize` bytes, as URLSession
/// reads a body stream.
/// - Parameters:
///   - stream: An unopened stream.
///   - pieceSize: The most each `read` asks for.
/// - Returns: The bytes read, or `nil` when a read fails.
public func contents(of stream: InputStream, pieceSize: Int = 4096) -> Data? {
    stream.open()
    defer { stream.close() }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: pieceSize)
    while stream.hasBytesAvailable {
        let count = buffer.withUnsafeMutableBufferPointer { pointer -> Int in
            guard let base = pointer.baseAddress else { return -1 }
            return stream.read(base, maxLength: pieceSize)
        }
        if count < 0 { return nil }
        if count == 0 { break }
        data.append(contentsOf: buffer[0..<count])
    }
    return data
}
