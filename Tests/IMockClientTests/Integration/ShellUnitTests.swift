import IMockCore
import Testing
@testable import IMockClient

/// Pure parts of the shell: database file names, the devices answer.
@Suite("Client shell: pure parts")
struct ShellUnitTests {
    @Test("database file names never leave the directory")
    func databaseNames() {
        #expect(DatabaseLocation.path(user: "alice_1-b", directory: "/d") == "/d/alice_1-b.sqlite")
        #expect(DatabaseLocation.path(user: "../x", directory: "/d") == "/d/%2E%2E%2Fx.sqlite")
        #expect(DatabaseLocation.path(user: "é", directory: "/d") == "/d/%C3%A9.sqlite")
        #expect(DatabaseLocation.path(user: "", directory: "/d") == "/d/%.sqlite")
        #expect(DatabaseLocation.path(user: "alice", directory: nil) == ":memory:")
    }

    @Test("an in-memory database stores a message once")
    func inMemoryDatabase() throws {
        let database = try MessageDatabase(path: ":memory:")
        let message = ChatMessage(messageId: "m1", from: "bob", to: "alice", text: "hi", timestamp: 7)
        try database.insert(message, offline: true)
        try database.insert(message, offline: false)
        #expect(database.messageIDs() == ["m1"])
        database.close()
        #expect(throws: ClientError(code: 3, message: "the database is closed")) { try database.insert(message, offline: false) }
    }

    @Test("a database that cannot be opened reports code 3 (EMErrorDatabaseOperationFailed)")
    func unopenableDatabase() {
        #expect(MessageDatabase.openFailedCode == 3)
        #expect(throws: ClientError(code: 3, message: "cannot open database /nonexistent-dir/x/y.sqlite: unable to open database file")) {
            try MessageDatabase(path: "/nonexistent-dir/x/y.sqlite")
        }
    }

    @Test("the devices answer and its errors")
    func devicesAnswer() throws {
        let ok = #"{"action":"get","data":[{"res":"ios_a","device_uuid":"a","device_name":"phone"}]}"#
        #expect(try IMClient.devices(status: 200, body: Array(ok.utf8)) == [LoggedInDevice(resource: "ios_a", deviceUUID: "a", deviceName: "phone")])
        let denied = #"{"error":"unauthorized","error_description":"Unable to authenticate"}"#
        #expect(throws: ClientError(code: 401, message: "Unable to authenticate")) {
            try IMClient.devices(status: 401, body: Array(denied.utf8))
        }
        #expect(throws: ClientError(code: 300, message: "data[0] lacks res, device_uuid or device_name")) {
            try IMClient.devices(status: 200, body: Array(#"{"data":[{"res":"x"}]}"#.utf8))
        }
        #expect(throws: ClientError(code: 300, message: "the answer has no data array")) {
            try IMClient.devices(status: 200, body: Array("{}".utf8))
        }
    }
}
