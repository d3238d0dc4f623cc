import Foundation
import HTTPTypes

/// The bytes of a stored response on disk, and back.
///
/// ```
/// "CRC1"  key hash  status  reason  fields  vary values  request time  response time  body  checksum
/// ```
/// Strings and the body are preceded by their length (32 bits, little-endian); the checksum covers
/// every byte before it. Reading checks every length against what is left, so a torn, truncated
/// or corrupt entry is never a response: it is `nil`, and the store drops it.
enum CacheEntryCoding {
    private static let magic: [UInt8] = Array("CRC1".utf8)

    /// The bytes of `response`, stored under the key hashed as `keyHash`.
    static func encode(_ response: CachedResponse, keyHash: String) -> Data {
        var writer = Writer()
        writer.bytes.append(contentsOf: magic)
        writer.string(keyHash)
        writer.integer(UInt32(response.response.status.code))
        writer.string(response.response.status.reasonPhrase)
        writer.integer(UInt32(response.response.headerFields.count))
        for field in response.response.headerFields {
            writer.string(field.name.rawName)
            writer.string(field.value)
        }
        writer.integer(UInt32(response.varyValues.count))
        for value in response.varyValues { writer.string(value) }
        writer.integer(response.requestTime.timeIntervalSince1970.bitPattern)
        writer.integer(response.responseTime.timeIntervalSince1970.bitPattern)
        writer.data(response.body)
        writer.integer(checksum(writer.bytes[...]))
        return Data(writer.bytes)
    }

    /// The response `data` holds, or `nil` when it is not a whole, intact entry for `keyHash`.
    static func decode(_ data: Data, keyHash: String) -> CachedResponse? {
        let bytes = [UInt8](data)
        guard bytes.count >= magic.count + 8 else { return nil }
        let content = bytes[..<(bytes.count - 8)]
        var trailer = Reader(bytes: bytes[(bytes.count - 8)...])
        guard let stored = trailer.integer(UInt64.self), stored == checksum(content) else { return nil }
        var reader = Reader(bytes: content)
        guard reader.take(magic.count).map(Array.init) == magic, reader.string() == keyHash,
            let code = reader.integer(UInt32.self), (100...999).contains(code),
            let reason = reader.string(),
            let fieldCount = reader.integer(UInt32.self)
        else { return nil }
        var fields = HTTPFields()
        for _ in 0..<min(Int(fieldCount), content.count) {
            guard let name = reader.string(), let value = reader.string() else { return nil }
            guard let fieldName = HTTPField.Name(name) else { return nil }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        guard let varyCount = reader.integer(UInt32.self) else { return nil }
        var varyValues: [String] = []
        for _ in 0..<min(Int(varyCount), content.count) {
            guard let value = reader.string() else { return nil }
            varyValues.append(value)
        }
        guard let requestTime = reader.integer(UInt64.self), let responseTime = reader.integer(UInt64.self),
            let body = reader.data(), reader.isAtEnd
        else { return nil }
        return CachedResponse(
            response: HTTPResponse(status: .init(code: Int(code), reasonPhrase: reason), headerFields: fields),
            body: body,
            varyValues: varyValues,
            requestTime: Date(timeIntervalSince1970: Double(bitPattern: requestTime)),
            responseTime: Date(timeIntervalSince1970: Double(bitPattern: responseTime))
        )
    }

    /// A 64-bit checksum of `bytes`, eight at a time: it tells a torn or damaged entry from an intact
    /// one (it is no defence against someone who writes the cache directory).
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset + 8 <= raw.count {
                let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                hash = (hash ^ word) &* 0x0000_0100_0000_01b3
                hash ^= hash >> 29
                offset += 8
            }
            while offset < raw.count {
                hash = (hash ^ UInt64(raw[offset])) &* 0x0000_0100_0000_01b3
                offset += 1
            }
        }
        return hash
    }

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func integer<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func string(_ value: String) {
            integer(UInt32(truncatingIfNeeded: value.utf8.count))
            bytes.append(contentsOf: value.utf8)
        }

        mutating func data(_ value: Data) {
            integer(UInt32(truncatingIfNeeded: value.count))
            bytes.append(contentsOf: value)
        }
    }

    private struct Reader {
        var bytes: ArraySlice<UInt8>

        var isAtEnd: Bool { bytes.isEmpty }

        mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, count <= bytes.count else { return nil }
            defer { bytes = bytes.dropFirst(count) }
            return bytes.prefix(count)
        }

        mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
            guard let raw = take(MemoryLayout<T>.size) else { return nil }
            var value: T = 0
            for (index, byte) in raw.enumerated() { value |= T(byte) << (8 * index) }
            return value
        }

        mutating func string() -> String? {
            guard let length = integer(UInt32.self), let raw = take(Int(length)) else { return nil }
            return String(validating: raw, as: UTF8.self)
        }

        mutating func data() -> Data? {
            guard let length = integer(UInt32.self), let raw = take(Int(length)) else { return nil }
            return Data(raw)
        }
    }
}
