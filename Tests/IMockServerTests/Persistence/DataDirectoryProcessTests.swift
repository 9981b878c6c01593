import Foundation
import IMockNet
import IMockServer
import IMockStore
import IMockTestSupport
import Testing

#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// `imock serve --data DIR` as a real process: the start-up report, SIGTERM, the refusals of a
/// directory it cannot use or a damaged store (exit 64) and a commit that fails (exit 74).
@Suite("imock serve --data (process)")
struct DataDirectoryProcessTests {
    /// Runs `imock arguments` to completion; killed after 60 s, so a refusal that regresses into
    /// a server that starts fails the test instead of hanging it.
    private func imock(_ arguments: [String]) async throws -> ExternalCommand.Output {
        try await ExternalCommand.run("/usr/bin/timeout", ["-s", "KILL", "60", try IMockProcess.binaryPath()] + arguments)
    }

    @Test("a new store is reported, kept through SIGTERM, and loaded by the next start (which ignores --app)")
    func newThenLoaded() async throws {
        let data = try ExternalCommand.temporaryDirectory() + "/nested/data"
        let first = try await IMockProcess.start(["--data", data, "--app", "acme#chat:open"])
        #expect(first.logText.contains(" info data directory=\(data) state=new\n"))
        let http = HTTPTestClient(port: first.port)
        #expect(try http.request("POST", "/acme/chat/users", json: #"{"username":"alice","password":"pw"}"#).status == 200)
        try first.stop()
        // The directory and the database hold secrets: owner only.
        #expect(try permissions(of: data) == 0o700)
        #expect(try permissions(of: data + "/imock.sqlite") == 0o600)

        let second = try await IMockProcess.start(["--data", data, "--app", "acme#other"])
        #expect(second.logText.contains(" info data directory=\(data) state=loaded apps=1 users=1 queuedMessages=0 checkpoints=0\n"))
        #expect(second.logText.contains(" warning data.seedIgnored "))
        let users = try HTTPTestClient(port: second.port).request(
            "POST", "/acme/chat/token", json: #"{"grant_type":"password","username":"alice","password":"pw"}"#)
        #expect(users.status == 200)
        try second.stop()
    }

    @Test("SIGTERM with --data: the goodbyes go out (1001), the exit status is 0, and the state is kept")
    func sigtermWithSessions() async throws {
        let data = try ExternalCommand.temporaryDirectory()
        let server = try await IMockProcess.start(["--data", data, "--app", "acme#chat:open"])
        let http = HTTPTestClient(port: server.port)
        let token = try http.userToken(appPath: "/acme/chat", user: "alice", ttl: 86_400)
        let loop = try EventLoop()
        loop.start()
        defer { loop.stop() }
        let device = try await ProtocolClient.connect(loop: loop, port: server.port)
        device.login(app: "acme#chat", user: "alice", token: token, uuid: "a1")
        #expect(await device.next(op: "login.ok")["op"]?.string == "login.ok")
        try server.stop()
        #expect(await device.socket.next() == .closed(code: 1001, reason: "server shutting down"))
        let restarted = try await IMockProcess.start(["--data", data])
        #expect(restarted.logText.contains(" state=loaded apps=1 users=1 "))
        try restarted.stop()
    }

    @Test("a directory that cannot be used exits 64 with the reason and leaves the files alone")
    func refusals() async throws {
        let base = try ExternalCommand.temporaryDirectory()

        // Not a SQLite file.
        let garbage = base + "/garbage"
        try FileManager.default.createDirectory(atPath: garbage, withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: garbage + "/imock.sqlite"))
        var result = try await imock(["serve", "--port", "0", "--data", garbage])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("imock serve: --data: \(garbage)/imock.sqlite is not an imock store: "), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: garbage + "/imock.sqlite")) == Data(repeating: 0x41, count: 4096))

        // An empty file: refused, not taken for a new store and written over.
        let empty = base + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: empty + "/imock.sqlite"))
        result = try await imock(["serve", "--port", "0", "--data", empty])
        #expect(result.status == 64)
        #expect(
            result.stderr == "imock serve: --data: \(empty)/imock.sqlite is not an imock store: it is empty (0 bytes), "
                + "which imock never leaves behind; restore it, or remove it to start a new store\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: empty + "/imock.sqlite")).isEmpty)

        // A store written by a newer imock: its schema version (the header's user_version) is 99.
        let newer = base + "/newer"
        let server = try await IMockProcess.start(["--data", newer])
        try server.stop()
        try patchUserVersion(of: newer + "/imock.sqlite", to: 99)
        result = try await imock(["serve", "--port", "0", "--data", newer])
        #expect(result.status == 64)
        #expect(
            result.stderr.contains("has schema version 99, written by a newer imock; this build reads versions up to "),
            "\(result.stderr)")

        // A path that is a file.
        let file = base + "/plain-file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        result = try await imock(["serve", "--port", "0", "--data", file])
        #expect(result.status == 64)
        #expect(result.stderr == "imock serve: --data: cannot use data directory \(file): it exists and is not a directory\n")

        // A directory another server is using.
        let shared = base + "/shared"
        let owner = try await IMockProcess.start(["--data", shared])
        result = try await imock(["serve", "--port", "0", "--data", shared])
        #expect(result.status == 64)
        #expect(result.stderr == "imock serve: --data: data directory \(shared) is in use by another imock process (its lock is held)\n")
        // Still refused with the lock file deleted, and the owner keeps serving.
        try FileManager.default.removeItem(atPath: shared + "/imock.lock")
        result = try await imock(["serve", "--port", "0", "--data", shared])
        #expect(result.status == 64)
        #expect(result.stderr == "imock serve: --data: data directory \(shared) is in use by another imock process (its lock is held)\n")
        #expect(try HTTPTestClient(port: owner.port).request("GET", "/_imock/health").status == 200)
        try owner.stop()
    }

    @Test("a store with a damaged page is refused at start: one line naming the file, exit 64, the file left alone")
    func damagedStore() async throws {
        let data = try ExternalCommand.temporaryDirectory()
        let first = try await IMockProcess.start(["--data", data, "--app", "acme#chat:open"])
        try first.stop()
        // The users' uuid index: loading never reads it, so without the check at start the
        // server served until the first registration failed to commit (exit 74).
        let database = data + "/imock.sqlite"
        let reader = try SQLiteDatabase(path: database, readOnly: true)
        let page = try #require(try reader.scalarInt64("SELECT rootpage FROM sqlite_schema WHERE name = 'sqlite_autoindex_users_2'"))
        let pageSize = try #require(try reader.scalarInt64("PRAGMA page_size"))
        reader.close()
        try overwrite(database, at: UInt64((page - 1) * pageSize), with: Data(count: Int(pageSize)))
        let damaged = try Data(contentsOf: URL(fileURLWithPath: database))

        let result = try await imock(["serve", "--port", "0", "--data", data])
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix("imock serve: --data: \(database) is damaged: Page \(page): "),
            "\(result.stderr)")
        #expect(result.stderr.filter(\.isNewline) == "\n", "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == damaged)
    }

    @Test("a commit that fails (the file-size limit) closes the connection unanswered and exits 74")
    func commitFailure() async throws {
        let data = try ExternalCommand.temporaryDirectory()
        // 600 blocks of 512 bytes: room for the new store, not for hundreds of registrations.
        let server = try await IMockProcess.start(["--data", data, "--app", "acme#chat:open"], fileSizeLimitBlocks: 600)
        let port = server.port
        let (answered, unanswered) = try await offPool { () throws -> (Int, Bool) in
            for index in 0..<5000 {
                let socket = try RawSocket(port: port)
                let body = #"{"username":"user\#(index)","password":"pw","nickname":"\#(String(repeating: "n", count: 90))"}"#
                try socket.send(
                    "POST /acme/chat/users HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
                if try socket.receiveUntilClosed().isEmpty { return (index, true) }
            }
            return (5000, false)
        }
        #expect(unanswered)
        #expect(answered > 0)
        #expect(try await offPool { server.waitForExit() } == .exited(74))
        #expect(server.logText.contains(" error store.failed error="), "\(server.logText)")
        // Everything answered is in the store; the refused registration is not.
        let restarted = try await IMockProcess.start(["--data", data])
        #expect(restarted.logText.contains(" state=loaded apps=1 users=\(answered) "), "\(restarted.logText)")
        try restarted.stop()
    }

    private func permissions(of path: String) throws -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { throw FixtureFailure(description: "stat \(path): \(errno)") }
        return Int(info.st_mode & 0o777)
    }

    /// Writes `version` into the SQLite header's user_version (big-endian at offset 60).
    private func patchUserVersion(of path: String, to version: UInt32) throws {
        try overwrite(path, at: 60, with: withUnsafeBytes(of: version.bigEndian) { Data($0) })
    }

    /// Writes `bytes` into the file at `path` from `offset` on.
    private func overwrite(_ path: String, at offset: UInt64, with bytes: Data) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: bytes)
        try handle.close()
    }
}
