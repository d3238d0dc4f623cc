import Foundation

/// A JSON text's bytes and its parsed ``JSONTape``, in memory of their own for as long as any
/// decoder reading them lives.
///
/// Decoders read both through unsafe buffer pointers: every index they use comes from the tape
/// itself, and this saves the retain, release and bounds check of an array on each of the many
/// reads per value.
final class JSONDocument {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Owns ``entries``.
    private let tape: JSONTape
    let entries: UnsafeBufferPointer<JSONTape.Entry>
    /// An entry that is `null` and belongs to no container, for values that are absent.
    let nullIndex: Int

    /// Copies and parses `data`.
    /// - Throws: ``JSONSyntaxError``.
    init(parsing data: some Collection<UInt8>) throws(JSONSyntaxError) {
        let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: data.count)
        UnsafeMutableRawBufferPointer(bytes).copyBytes(from: data)  // UInt8 is trivial: copying initializes
        do {
            tape = try JSONTape(parsing: UnsafeBufferPointer(bytes))
        } catch {
            bytes.deallocate()
            throw error
        }
        self.bytes = UnsafeBufferPointer(bytes)
        entries = tape.entries
        nullIndex = tape.nullIndex
    }

    deinit {
        bytes.deallocate()
    }
}
