import Testing

@testable import IMockCore

/// A directory with one app `acme#chat` (authorized) and a second app `acme#other`.
func makeDirectory() throws -> (Directory, AppKey, AppKey) {
    var directory = Directory(settings: DirectorySettings(passwordIterations: 1))
    let key = try AppKey(org: "acme", app: "chat")
    let other = try AppKey(org: "acme", app: "other")
    try directory.createApp(key, clientID: "cid", clientSecret: "secret")
    try directory.createApp(other)
    return (directory, key, other)
}

/// The domain error `body` throws, nil when it succeeds; any other error is a test failure.
func directoryError(_ body: () throws -> Void) -> DirectoryError? {
    caughtError(body)
}

/// The token error `body` throws, nil when it succeeds.
func tokenError(_ body: () throws -> Void) -> TokenError? {
    caughtError(body)
}

func caughtError<E: Error>(_ body: () throws -> Void) -> E? {
    do {
        try body()
    } catch let error as E {
        return error
    } catch {
        Issue.record("unexpected error \(error)")
    }
    return nil
}

@Suite struct AppKeyTests {
    @Test(arguments: ["acme#chat", "Acme_1#a-b-9", "o#" + String(repeating: "a", count: 32)])
    func valid(text: String) throws {
        #expect(try AppKey(parsing: text).description == text)
    }

    @Test(arguments: [
        ("acme", DirectoryError.invalidAppKey("acme")), ("a#b#c", .invalidAppKey("a#b#c")),
        ("#chat", .invalidOrgName("")), ("acme#", .invalidAppName("")), ("acme#Chat", .invalidAppName("Chat")),
        ("acme#c_d", .invalidAppName("c_d")), ("a c#chat", .invalidOrgName("a c")),
        ("o#" + String(repeating: "a", count: 33), .invalidAppName(String(repeating: "a", count: 33))),
    ])
    func invalid(text: String, error: DirectoryError) {
        #expect(directoryError { _ = try AppKey(parsing: text) } == error)
    }

    @Test func generatedCredentialsAreRandomAndSettingsChecked() throws {
        var (directory, key, _) = try makeDirectory()
        let a = try directory.createApp(AppKey(org: "x", app: "a"))
        let b = try directory.createApp(AppKey(org: "x", app: "b"))
        #expect(a.clientID.hasPrefix("YXA6") && a.clientSecret.hasPrefix("YXA6"))
        #expect(a.clientID != b.clientID && a.clientSecret != b.clientSecret && a.uuid != b.uuid)
        let before = directory
        #expect(directoryError { try directory.createApp(key) } == .appExists(key))
        #expect(
            directoryError { try directory.createApp(AppKey(org: "x", app: "c"), clientSecret: "") }
                == .invalidCredentials("empty"))
        #expect(
            directoryError {
                try directory.createApp(AppKey(org: "x", app: "d"), settings: AppSettings(restRateLimitPerSecond: 0))
            } == .invalidSettings("restRateLimitPerSecond must be at least 1"))
        #expect(directory == before)
    }
}

@Suite struct UserFieldTests {
    @Test(arguments: [("Alice", "alice"), ("a.b-c_9", "a.b-c_9"), ("ZZ", "zz"), (String(repeating: "x", count: 64), String(repeating: "x", count: 64))])
    func usernamesFold(raw: String, canonical: String) throws {
        #expect(try UserFields.normalizeUsername(raw) == canonical)
    }

    @Test(arguments: [
        ("", DirectoryError.illegalUsername("")), ("a b", .illegalUsername("a b")), ("é", .illegalUsername("é")),
        ("a@b", .illegalUsername("a@b")), (String(repeating: "x", count: 65), .usernameTooLong),
        (String(repeating: "é", count: 33), .usernameTooLong),
    ])
    func illegalUsernames(raw: String, error: DirectoryError) {
        #expect(directoryError { _ = try UserFields.normalizeUsername(raw) } == error)
    }

    @Test func passwordAndNicknameLimits() {
        #expect(directoryError { try UserFields.validatePassword("") } == .passwordMissing)
        #expect(directoryError { try UserFields.validatePassword(String(repeating: "p", count: 65)) } == .passwordTooLong)
        #expect(directoryError { try UserFields.validatePassword(String(repeating: "p", count: 64)) } == nil)
        #expect(directoryError { try UserFields.validateNickname(String(repeating: "n", count: 101)) } == .nicknameTooLong)
        #expect(directoryError { try UserFields.validateNickname(String(repeating: "n", count: 100)) } == nil)
    }
}

@Suite struct UserTests {
    @Test func registerFindListDelete() throws {
        var (directory, key, other) = try makeDirectory()
        let alice = try directory.registerUser(NewUser(username: "Alice", password: "pw", nickname: "A"), in: key, nowMs: 10)
        #expect(alice.username == "alice" && alice.nickname == "A" && alice.activated && alice.createdMs == 10)
        #expect(try directory.user("ALICE", in: key) == alice)
        #expect(directoryError { _ = try directory.user("alice", in: other) } == .userNotFound("alice"))
        #expect(directoryError { try directory.registerUser(NewUser(username: "alice", password: "x"), in: key, nowMs: 11) } == .userExists("alice"))
        #expect(try directory.deleteUser("alice", in: key) == alice)
        #expect(directoryError { _ = try directory.user("alice", in: key) } == .userNotFound("alice"))
    }

    @Test func passwordsAreHashedNotStored() throws {
        var (directory, key, _) = try makeDirectory()
        let user = try directory.registerUser(NewUser(username: "bob", password: "hunter2"), in: key, nowMs: 0)
        let hash = try #require(user.passwordHash)
        #expect(hash.verify("hunter2") && !hash.verify("hunter3"))
        #expect(!String(describing: user).contains("hunter2"))
        #expect(hash.digest.count == 32 && hash.salt.count == 16)
    }

    @Test func batchReportsExistingAndRefusesInvalid() throws {
        var (directory, key, _) = try makeDirectory()
        try directory.registerUser(NewUser(username: "u2", password: "p"), in: key, nowMs: 0)
        let result = try directory.registerBatch(
            [NewUser(username: "u1", password: "p"), NewUser(username: "U2", password: "p"), NewUser(username: "u3", password: "p")],
            in: key, nowMs: 1)
        #expect(result.created.map(\.username) == ["u1", "u3"])
        #expect(result.existing == ["u2"])
        let before = directory
        let cases: [([NewUser], DirectoryError)] = [
            ([NewUser(username: "n1", password: "p"), NewUser(username: "N1", password: "q")], .userExistsInBatch("n1")),
            ([NewUser(username: "n1", password: "p"), NewUser(username: "bad name", password: "q")], .illegalUsername("bad name")),
            ([NewUser(username: "n1", password: "p"), NewUser(username: "n2", password: "")], .passwordMissing),
            (Array(repeating: NewUser(username: "x", password: "p"), count: 61), .batchTooLarge(61)),
        ]
        for (entries, error) in cases {
            #expect(directoryError { _ = try directory.registerBatch(entries, in: key, nowMs: 2) } == error)
        }
        #expect(directory == before)
    }

    @Test func paginationWalksAllUsersInCreationOrder() throws {
        var (directory, key, _) = try makeDirectory()
        for index in 0..<25 { try directory.registerUser(NewUser(username: "u\(index)", password: "p"), in: key, nowMs: 0) }
        try directory.deleteUser("u3", in: key)
        var seen: [String] = []
        var cursor: String?
        repeat {
            let page = try directory.users(in: key, limit: 10, cursor: cursor)
            seen += page.users.map(\.username)
            cursor = page.cursor
        } while cursor != nil
        #expect(seen == (0..<25).filter { $0 != 3 }.map { "u\($0)" })
        #expect(directoryError { _ = try directory.users(in: key, limit: 0, cursor: nil) } == .invalidLimit(0))
        #expect(directoryError { _ = try directory.users(in: key, limit: 101, cursor: nil) } == .invalidLimit(101))
        #expect(directoryError { _ = try directory.users(in: key, limit: 5, cursor: "zzz") } == .invalidCursor("zzz"))
    }

    @Test func activationAndPasswordChange() throws {
        var (directory, key, _) = try makeDirectory()
        try directory.registerUser(NewUser(username: "c", password: "old"), in: key, nowMs: 0)
        #expect(try directory.setActivated(false, user: "c", in: key, nowMs: 5).activated == false)
        #expect(directoryError { _ = try directory.issueUserToken(in: key, username: "c", password: "old", ttlSeconds: nil, nowMs: 6) } == .userNotActivated("c"))
        try directory.setActivated(true, user: "c", in: key, nowMs: 7)
        let before = directory
        #expect(directoryError { try directory.changePassword("c", to: "", in: key, nowMs: 8) } == .passwordMissing)
        #expect(directory == before)
        let changed = try directory.changePassword("c", to: "new", in: key, nowMs: 9)
        #expect(changed.modifiedMs == 9)
        #expect(directoryError { _ = try directory.issueUserToken(in: key, username: "c", password: "old", ttlSeconds: nil, nowMs: 10) } == .invalidPassword)
        #expect(try directory.issueUserToken(in: key, username: "c", password: "new", ttlSeconds: nil, nowMs: 10).user.username == "c")
    }
}
