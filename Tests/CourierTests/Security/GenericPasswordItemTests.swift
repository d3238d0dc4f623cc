import Foundation
import TestSupport
import Testing

@testable import Courier

@Suite("Tokens in a keychain item are replaced in one step")
struct GenericPasswordItemTests {
    /// A keychain item in memory that records the calls made to it.
    final class MemoryItem: GenericPasswordItem {
        struct State {
            var data: Data?
            var calls: [String] = []
            /// Adds the item under the next `add`, as another writer would.
            var addedByAnotherWriter = false
            var refuses = false
        }

        let state = LockedBox(State())

        func read() throws -> Data? {
            try state.mutate { state in
                state.calls.append("read")
                if state.refuses { throw CourierError(.fileAccessFailed) }
                return state.data
            }
        }

        func update(_ data: Data) throws -> Bool {
            try state.mutate { state in
                state.calls.append("update")
                if state.refuses { throw CourierError(.fileAccessFailed) }
                guard state.data != nil else { return false }
                state.data = data
                return true
            }
        }

        func add(_ data: Data) throws -> Bool {
            state.mutate { state in
                state.calls.append("add")
                if state.addedByAnotherWriter {
                    state.data = Data("theirs".utf8)
                    return false
                }
                state.data = data
                return true
            }
        }

        func delete() throws {
            state.mutate { state in
                state.calls.append("delete")
                state.data = nil
            }
        }
    }

    static let tokens = AuthTokens(accessToken: "access", refreshToken: "refresh")

    @Test("the first save adds the item once an update finds none; loading reads the tokens back")
    func firstSave() throws {
        let item = MemoryItem()
        #expect(try item.loadTokens() == nil)
        try item.saveTokens(Self.tokens)
        #expect(item.state.value.calls == ["read", "update", "add"])
        #expect(try item.loadTokens() == Self.tokens)
    }

    @Test("saving over stored tokens updates the item in place and never deletes it")
    func replace() throws {
        let item = MemoryItem()
        try item.saveTokens(Self.tokens)
        item.state.mutate { $0.calls = [] }
        let renewed = AuthTokens(accessToken: "renewed")
        try item.saveTokens(renewed)
        #expect(item.state.value.calls == ["update"])
        #expect(try item.loadTokens() == renewed)
    }

    @Test("an item another writer adds between the update and the add is updated")
    func concurrentAdd() throws {
        let item = MemoryItem()
        item.state.mutate { $0.addedByAnotherWriter = true }
        try item.saveTokens(Self.tokens)
        #expect(item.state.value.calls == ["update", "add", "update"])
        #expect(try item.loadTokens() == Self.tokens)
    }

    @Test("saving nil deletes the item")
    func signOut() throws {
        let item = MemoryItem()
        try item.saveTokens(Self.tokens)
        try item.saveTokens(nil)
        #expect(try item.loadTokens() == nil)
    }

    @Test("a refusing keychain and an item without tokens fail as CourierError")
    func failures() throws {
        let item = MemoryItem()
        item.state.mutate { $0.refuses = true }
        #expect(throws: CourierError.self) { try item.saveTokens(Self.tokens) }
        #expect(throws: CourierError.self) { try item.loadTokens() }
        item.state.mutate { $0 = .init(data: Data("not tokens".utf8)) }
        let error = #expect(throws: CourierError.self) { try item.loadTokens() }
        #expect(error?.kind == .decodingFailed)
    }

    @Test("a keychain that refuses an unsigned app (errSecMissingEntitlement, -34018) says which entitlement is missing")
    func missingEntitlement() {
        let refused = keychainFailure("read", status: -34018)
        #expect(refused.kind == .fileAccessFailed)
        #expect(refused.message?.contains("keychain-access-groups entitlement") == true)
        #expect(refused.message?.contains("OSStatus -34018") == true)
        #expect(keychainFailure("add", status: -25299).message?.contains("entitlement") == false)
    }
}
