import IMockCore
import Testing
@testable import IMockClient

/// Pure parts of the shell: the server URL, database file names, the devices answer.
@Suite("Client shell: pure parts")
struct ShellUnitTests {
    static let urls: [(String, ServerEndpoint)] = [
        ("ws://127.0.0.1:5280/ws", ServerEndpoint(host: "127.0.0.1", port: 5280)),
        ("ws://localhost:8080", ServerEndpoint(host: "localhost", port: 8080)),
        ("wss://im.example.com/", ServerEndpoint(host: "im.example.com", port: 443, secure: true)),
        ("http://[::1]:9000/socket?x=1", ServerEndpoint(host: "::1", port: 9000, path: "/socket")),
        ("WS://h", ServerEndpoint(host: "h", port: 80)),
    ]

    @Test("server URLs", arguments: urls)
    func parsesURL(url: String, expected: ServerEndpoint) throws {
        #expect(try ServerEndpoint(url: url) == expected)
    }

    static let badURLs: [(String, ServerURLError)] = [
        ("ftp://h/ws", .unsupportedScheme("ftp://h/ws")),
        ("ws://:80/ws", .invalidHost("ws://:80/ws")),
        ("ws://user@h/ws", .invalidHost("ws://user@h/ws")),
        ("ws://[::1/ws", .invalidHost("ws://[::1/ws")),
        ("ws://h:0/ws", .invalidPort("0")),
        ("ws://h:70000/ws", .invalidPort("70000")),
        ("ws://h:x/ws", .invalidPort("x")),
    ]

    @Test("malformed server URLs are refused with the reason", arguments: badURLs)
    func refusesURL(url: String, error: ServerURLError) {
        #expect(throws: error) { try ServerEndpoint(url: url) }
    }

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

    @Test("HTTP responses: Content-Length, chunked, truncated")
    func httpParse() throws {
        let plain = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}".utf8)
        let parsed = try HTTPFetchParsing.parse(plain).get()
        #expect(parsed.status == 200)
        #expect(parsed.body == Array("{}".utf8))
        let chunked = Array("HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n".utf8)
        let dechunked = try HTTPFetchParsing.parse(chunked).get()
        #expect(dechunked.status == 404)
        #expect(dechunked.body == Array("{}".utf8))
        let short = Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n{}".utf8)
        #expect(throws: HTTPFetchError.malformedResponse("Content-Length 5 does not match the body")) { try HTTPFetchParsing.parse(short).get() }
    }
}
