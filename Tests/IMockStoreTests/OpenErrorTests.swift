import Foundation
import IMockCore
import Testing

@testable import IMockStore

/// Bad directories and files give a clear ``StoreError``, never a trap.
@Suite struct OpenErrorTests {
    @Test("missing parents are created; a path under a file cannot be")
    func directories() throws {
        let scratch = try ScratchDirectory()
        let nested = scratch.file("a/b/c")
        try PersistentStore.open(directory: nested).close()
        #expect(FileManager.default.fileExists(atPath: nested + "/imock.sqlite"))

        #expect(FileManager.default.createFile(atPath: scratch.file("plain"), contents: Data("x".utf8)))
        #expect(throws: StoreError.directoryUnavailable(path: scratch.file("plain"), reason: "it exists and is not a directory")) {
            try PersistentStore.open(directory: scratch.file("plain"))
        }
        #expect(throws: StoreError.directoryUnavailable(path: scratch.file("plain/sub"), reason: "mkdir \(scratch.file("plain/sub")): Not a directory")) {
            try PersistentStore.open(directory: scratch.file("plain/sub"))
        }
        #expect(throws: StoreError.directoryUnavailable(path: "", reason: "the path is empty")) {
            try PersistentStore.open(directory: "")
        }
    }

    @Test("a file that is not a SQLite database is refused and left as it was")
    func notADatabase() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("imock.sqlite")
        let garbage = Data(repeating: 0x41, count: 4096)
        #expect(FileManager.default.createFile(atPath: path, contents: garbage))
        #expect(throws: StoreError.notAStore(path: path, reason: "file is not a database")) {
            try PersistentStore.open(directory: scratch.path)
        }
        #expect(FileManager.default.contents(atPath: path) == garbage)
        // The lock was given back: a store can be opened once the file is fixed.
        try FileManager.default.removeItem(atPath: path)
        try PersistentStore.open(directory: scratch.path).close()
    }

    @Test("an empty imock.sqlite is refused, writable or read-only, and left as it was")
    func emptyFile() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("imock.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let refusal = StoreError.notAStore(path: path, reason: DatabaseFile.emptyReason)
        #expect(throws: refusal) { try PersistentStore.open(directory: scratch.path) }
        #expect(throws: refusal) { try PersistentStore.open(directory: scratch.path, options: StoreOptions(readOnly: true)) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == ["imock.lock", "imock.sqlite"])
        #expect(FileManager.default.contents(atPath: path) == Data())
    }

    @Test("a new store is made whole, replacing what an interrupted attempt left")
    func newStoreReplacesLeftovers() throws {
        let scratch = try ScratchDirectory()
        // An earlier first start killed while making the store, with a journal SQLite would roll
        // back into a new file of that name.
        let staging = scratch.file("imock.sqlite.new")
        #expect(FileManager.default.createFile(atPath: staging, contents: Data(repeating: 0x41, count: 100)))
        #expect(FileManager.default.createFile(atPath: staging + "-journal", contents: Data(repeating: 0x42, count: 4096)))
        let store = try PersistentStore.open(directory: scratch.path)
        #expect(store.openedSchemaVersion == 0)
        try StoreFixtures.storeApp(in: store)
        store.close()
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == ["imock.lock", "imock.sqlite"])
        let permissions = try FileManager.default.attributesOfItem(atPath: scratch.file("imock.sqlite"))[.posixPermissions]
        #expect(permissions as? Int == 0o600)
        let reopened = try PersistentStore.open(directory: scratch.path)
        #expect(try reopened.load().document.apps.map(\.appKey) == [StoreFixtures.chat])
    }

    @Test("the database path being a directory is a clear error")
    func databaseIsADirectory() throws {
        let scratch = try ScratchDirectory()
        try FileManager.default.createDirectory(atPath: scratch.file("imock.sqlite"), withIntermediateDirectories: false)
        let error = #expect(throws: StoreError.self) { try PersistentStore.open(directory: scratch.path) }
        #expect(error?.description.contains("imock.sqlite") == true)
    }

    @Test("a second writer on the same directory is refused until the first closes")
    func secondWriterRefused() throws {
        let scratch = try ScratchDirectory()
        let first = try PersistentStore.open(directory: scratch.path)
        #expect(throws: StoreError.inUse(path: scratch.path)) { try PersistentStore.open(directory: scratch.path) }
        first.close()
        try PersistentStore.open(directory: scratch.path).close()
    }

    @Test("deleting imock.lock under an open store does not let a second writer in")
    func lockFileDeleted() throws {
        let scratch = try ScratchDirectory()
        let first = try PersistentStore.open(directory: scratch.path)
        try FileManager.default.removeItem(atPath: scratch.file("imock.lock"))
        #expect(throws: StoreError.inUse(path: scratch.path)) { try PersistentStore.open(directory: scratch.path) }
        first.close()
        // The next writer makes the lock file again.
        try PersistentStore.open(directory: scratch.path).close()
        #expect(FileManager.default.fileExists(atPath: scratch.file("imock.lock")))
    }

    @Test("read-only needs an existing store; a closed store refuses work")
    func readOnlyAndClosed() throws {
        let scratch = try ScratchDirectory()
        let error = #expect(throws: StoreError.self) {
            try PersistentStore.open(directory: scratch.path, options: StoreOptions(readOnly: true))
        }
        #expect(error == .notAStore(path: scratch.file("imock.sqlite"), reason: "No such file or directory"))
        let store = try PersistentStore.open(directory: scratch.path)
        store.close()
        store.close()
        #expect(!store.isOpen)
        #expect(throws: StoreError.unavailable("\(scratch.file("imock.sqlite")) is closed")) { try store.load() }
        #expect(throws: StoreError.unavailable("\(scratch.file("imock.sqlite")) is closed")) {
            try store.apply([.nextMessageSerial(1)])
        }
    }
}
