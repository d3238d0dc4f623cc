@testable import Courier
import Foundation
import TestSupport
import Testing

@Suite("File token store: owner-only from the first byte, replaced atomically")
struct FileTokenStoreTests {
    /// A new empty directory, removed by `body`'s end.
    private func withDirectory(_ body: (URL) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory)
    }

    @Test("the file store writes atomically with permissions 0600 and deletes on sign-out")
    func saveLoadDelete() throws {
        try withDirectory { directory in
            let store = FileTokenStore(url: directory.appendingPathComponent("tokens.json"))
            #expect(try store.load() == nil)
            let tokens = AuthTokens(accessToken: "a", refreshToken: "r", expiresAt: Date(timeIntervalSince1970: 2_000_000_000))
            try store.save(tokens)
            try store.save(tokens)
            #expect(try store.load() == tokens)
            let attributes = try FileManager.default.attributesOfItem(atPath: store.url.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["tokens.json"], "no temporary files left")
            try store.save(nil)
            #expect(try store.load() == nil)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
            try store.save(nil)
        }
    }

    @Test("a save into a directory that does not exist throws a POSIX error")
    func missingDirectory() throws {
        let store = FileTokenStore(url: URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/tokens.json"))
        #expect(throws: POSIXError.self) { try store.save(AuthTokens(accessToken: "a")) }
    }

    @Test("while 200 saves run, no file in the directory is ever readable by group or others")
    func neverExposed() throws {
        try withDirectory { directory in
            let store = FileTokenStore(url: directory.appendingPathComponent("tokens.json"))
            let stop = LockedBox(false)
            let seen = LockedBox<(files: Int, exposed: [String])>((0, []))
            let finished = DispatchSemaphore(value: 0)
            // A thread of its own, not the cooperative pool, so it stats while the saves block.
            let watcher = Thread {
                while !stop.value {
                    for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] {
                        // A temporary file may be renamed between listing and reading its mode.
                        guard let attributes = try? FileManager.default.attributesOfItem(atPath: directory.path + "/" + name),
                            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue
                        else { continue }
                        seen.mutate { seen in
                            seen.files += 1
                            if mode & 0o077 != 0 { seen.exposed.append("\(name) \(String(mode, radix: 8))") }
                        }
                    }
                }
                finished.signal()
            }
            watcher.start()
            for index in 0..<200 {
                try store.save(AuthTokens(accessToken: "access-\(index)", refreshToken: "refresh-\(index)"))
            }
            stop.mutate { $0 = true }
            finished.wait()
            #expect(seen.value.exposed.isEmpty)
            #expect(seen.value.files > 0, "the watcher saw the files")
            #expect(try store.load()?.accessToken == "access-199")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["tokens.json"])
        }
    }
}
