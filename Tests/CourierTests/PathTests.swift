import Courier
import Foundation
import Testing

@Suite("Endpoint paths")
struct PathTests {
    @Test("interpolated values are escaped as a single segment")
    func interpolation() {
        let name = "a/b?c#d%e f"
        let path: Path = "files/\(name)/meta"
        #expect(path.description == "files/a%2Fb%3Fc%23d%25e%20f/meta")
    }

    @Test("unicode in a path is percent-encoded UTF-8")
    func unicode() {
        let path: Path = "search/\("café ☕")"
        #expect(path.description == "search/caf%C3%A9%20%E2%98%95")
    }

    @Test("a leading slash is optional")
    func leadingSlash() {
        #expect(Path("/movie/popular").description == "movie/popular")
    }

    @Test("segments are escaped one by one")
    func segments() {
        #expect(Path(segments: ["a b", "c/d"]).description == "a%20b/c%2Fd")
    }
}
