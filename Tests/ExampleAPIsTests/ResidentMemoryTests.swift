import Foundation
import Testing

@testable import ExampleAPIs

/// The memory readings that the upload bounds, the soak test and the benchmarks rest on: real
/// figures on Linux and on Apple platforms, never a 0 that would let every bound pass.
@Suite("Resident memory is read on every platform the tests run on")
struct ResidentMemoryTests {
    @Test("the resident memory counts at least the pages just touched, and the peak at least that")
    func readings() {
        #expect(ResidentMemory.currentBytes() > 1 << 20)
        let pages = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 20, alignment: 4096)
        defer { pages.deallocate() }
        for offset in stride(from: 0, to: pages.count, by: 4096) { pages[offset] = 1 }
        let touched = ResidentMemory.currentBytes()
        // Other tests run beside this one and may free memory meanwhile: the pages held are the
        // bound, less what macOS may compress under pressure at once.
        #expect(touched >= 48 << 20, "64 MiB touched, \(touched) bytes resident")
        #expect(ResidentMemory.peakMebibytes() >= Double(touched) / 1_048_576 - 1)
    }
}
