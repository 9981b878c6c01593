import Testing

@testable import IMockCore

@Suite struct SeedLoadingTests {
    @Test func seededPlainPasswordsWorkForThePasswordGrant() throws {
        var directory = try SeedExamples.document(SeedExamples.minimal)
            .makeDirectory(settings: DirectorySettings(passwordIterations: 7), nowMs: 42)
        let demo = try AppKey(parsing: "acme#demo")
        let (token, user) = try directory.issueUserToken(
            in: demo, username: "BOB", password: "bob-password", ttlSeconds: nil, nowMs: 50)
        #expect(user.username == "bob")
        #expect(user.nickname == "Bob")
        #expect(user.passwordHash?.iterations == 7)
        #expect(try directory.verifyToken(token.token, for: demo, nowMs: 51).subject == "bob")
        #expect(throws: DirectoryError.invalidPassword) {
            try directory.issueUserToken(in: demo, username: "bob", password: "alice-password", ttlSeconds: nil, nowMs: 50)
        }
    }

    @Test func absentFieldsAreGeneratedAtLoad() throws {
        let directory = try SeedExamples.document(SeedExamples.minimal)
            .makeDirectory(settings: DirectorySettings(), nowMs: 42)
        let app = try directory.app(try AppKey(parsing: "acme#demo"))
        #expect(app.settings.registrationMode == .open)
        #expect(SeedApp.isUUID(app.uuid))
        #expect(app.clientID.hasPrefix("YXA6") && app.clientID.utf8.count == 26)
        #expect(app.clientSecret.hasPrefix("YXA6") && app.clientSecret.utf8.count == 36)
        #expect(app.signingKey.count == 32)
        #expect(app.nextTokenSerial == 1)
        #expect(app.orderedUsernames == ["alice", "bob"])
        let alice = try #require(app.users["alice"])
        #expect(SeedApp.isUUID(alice.uuid))
        #expect(alice.createdMs == 42 && alice.modifiedMs == 42)
        #expect(alice.activated)
        #expect(alice.sequence == 1 && app.users["bob"]?.sequence == 2)
        #expect(alice.minimumTokenSerial == 1)
        #expect(app.nextUserSequence == 3)
    }

    @Test func exportedHashesVerifyAndRespectActivation() throws {
        var directory = try SeedExamples.document(SeedExamples.complete)
            .makeDirectory(settings: DirectorySettings(), nowMs: 0)
        let chat = try AppKey(parsing: "acme#chat")
        let (token, _) = try directory.issueUserToken(
            in: chat, username: "alice", password: "alice-password", ttlSeconds: 60, nowMs: 1_700_000_300_000)
        #expect(token.claims.tokenID == 7)
        #expect(throws: DirectoryError.userNotActivated("bob")) {
            try directory.issueUserToken(
                in: chat, username: "bob", password: "bob-password", ttlSeconds: 60, nowMs: 1_700_000_300_000)
        }
        #expect(throws: DirectoryError.invalidPassword) {
            try directory.issueUserToken(in: chat, username: "robot-1", password: "x", ttlSeconds: 60, nowMs: 0)
        }
        let appToken = try directory.issueAppToken(
            in: chat, clientID: "YXA6acmeChatClient", clientSecret: "YXA6acmeChatSecret", ttlSeconds: nil, nowMs: 0)
        #expect(appToken.expiresInSeconds == 604_800)
    }

    @Test func sequencesFillInAfterTheHighestExplicitOne() throws {
        let json = #"""
            {"version":1,"apps":[{"appKey":"o#a","users":[
              {"username":"c"},{"username":"a","sequence":5},{"username":"b"}]}]}
            """#
        let app = try SeedExamples.document(json).makeDirectory(settings: DirectorySettings(), nowMs: 0)
            .app(try AppKey(parsing: "o#a"))
        #expect(app.orderedUsernames == ["a", "c", "b"])
        #expect(app.users["c"]?.sequence == 6 && app.users["b"]?.sequence == 7)
        #expect(app.nextUserSequence == 8)
    }

    @Test func tokensStayValidAcrossExportAndLoadWhenTheSigningKeyIsKept() throws {
        var directory = Directory(settings: DirectorySettings(passwordIterations: 10))
        let key = try AppKey(parsing: "o#a")
        try directory.createApp(key)
        try directory.registerUser(NewUser(username: "u", password: "pw"), in: key, nowMs: 0)
        let live = try directory.issueUserToken(in: key, username: "u", password: "pw", ttlSeconds: 0, nowMs: 0).token
        let revoked = try directory.issueUserToken(in: key, username: "u", password: "pw", ttlSeconds: 0, nowMs: 0).token
        directory.revokeToken(id: revoked.claims.tokenID, in: key)
        let app = try directory.app(key)
        let appToken = try directory.issueAppToken(
            in: key, clientID: app.clientID, clientSecret: app.clientSecret, ttlSeconds: 0, nowMs: 0)

        let document = try SeedDocument.parse(bytes: SeedDocument.export(directory).encoded())
        var restored = try document.makeDirectory(settings: directory.settings, nowMs: 10)
        #expect(try restored.verifyToken(live.token, for: key, nowMs: 10) == live.claims)
        #expect(try restored.verifyToken(appToken.token, for: key, nowMs: 10) == appToken.claims)
        #expect(throws: TokenError.revoked) { try restored.verifyToken(revoked.token, for: key, nowMs: 10) }
        // New tokens continue the id sequence instead of reusing revoked ids.
        let next = try restored.issueUserToken(in: key, username: "u", password: "pw", ttlSeconds: 0, nowMs: 10).token
        #expect(next.claims.tokenID == 4)

        var withoutKey = document
        withoutKey.apps[0].signingKey = nil
        let rekeyed = try withoutKey.makeDirectory(settings: directory.settings, nowMs: 10)
        #expect(throws: TokenError.badSignature) { try rekeyed.verifyToken(live.token, for: key, nowMs: 10) }
    }

    @Test func tokensRefusedBeforeExportStayRefused() throws {
        var directory = Directory(settings: DirectorySettings(passwordIterations: 10))
        let key = try AppKey(parsing: "o#a")
        try directory.createApp(key)
        try directory.registerUser(NewUser(username: "u", password: "old"), in: key, nowMs: 0)
        let old = try directory.issueUserToken(in: key, username: "u", password: "old", ttlSeconds: 0, nowMs: 0).token
        try directory.changePassword("u", to: "new", in: key, nowMs: 1)
        let restored = try SeedDocument.parse(bytes: SeedDocument.export(directory).encoded())
            .makeDirectory(settings: directory.settings, nowMs: 2)
        #expect(throws: TokenError.revoked) { try restored.verifyToken(old.token, for: key, nowMs: 2) }
    }

    @Test func aFailedLoadChangesNothing() throws {
        let original = try SeedRoundTripTests.populatedDirectory()
        var current = original
        let bad = #"{"version":1,"apps":[{"appKey":"acme#chat"},{"appKey":"acme#demo","users":[{"username":"A B"}]}]}"#
        do {
            current = try SeedDocument.parse(bytes: Array(bad.utf8)).makeDirectory(settings: current.settings, nowMs: 0)
            Issue.record("the bad seed loaded")
        } catch {
            #expect(error == SeedError(path: "apps[1].users[0].username", message: "username [A B] is not legal"))
        }
        #expect(current == original)

        // A per-app restore refuses a bad app and leaves every app as it was.
        let chat = try AppKey(parsing: "acme#chat")
        let badApp = SeedApp(appKey: chat, users: [SeedUser(username: "ok"), SeedUser(username: "no way")])
        #expect(throws: SeedError(path: "apps[0].users[1].username", message: "username [no way] is not legal")) {
            try current.restoreApp(from: badApp, nowMs: 0)
        }
        #expect(current == original)
    }

    @Test func restoreAppReplacesOnlyThatApp() throws {
        var directory = try SeedRoundTripTests.populatedDirectory()
        let chat = try AppKey(parsing: "acme#chat")
        let demo = try AppKey(parsing: "acme#demo")
        let checkpoint = SeedApp.export(try directory.app(chat))
        let demoBefore = try directory.app(demo)
        try directory.registerUser(NewUser(username: "late", password: "pw"), in: chat, nowMs: 10_000)
        try directory.deleteUser("amy", in: chat)
        try directory.restoreApp(from: checkpoint, nowMs: 20_000)
        #expect(SeedApp.export(try directory.app(chat)) == checkpoint)
        #expect(try directory.app(demo) == demoBefore)
        #expect(throws: DirectoryError.userNotFound("late")) { try directory.user("late", in: chat) }
    }
}
