import Testing

@testable import IMockCore

@Suite struct SeedRoundTripTests {
    /// A directory with two apps, users in every state, issued and revoked tokens.
    static func populatedDirectory() throws -> Directory {
        var directory = Directory(settings: DirectorySettings(passwordIterations: 10))
        let chat = try AppKey(parsing: "acme#chat")
        let demo = try AppKey(parsing: "acme#demo")
        try directory.createApp(
            demo, settings: AppSettings(registrationMode: .open, activeUserLimit: 50, loginPolicy: .openIM(.pcAndOther)))
        // `.mobile: 3` equals the default: a separate setting that must survive the round trip.
        let limits = try EasemobDeviceLimits(defaultLimit: 3, overrides: [.custom(42): 2, .web: 0, .mobile: 3])
        try directory.createApp(
            chat,
            settings: AppSettings(
                defaultTokenTTLSeconds: 0, serviceEnabled: false, restRateLimitPerSecond: 9,
                loginPolicy: .easemob(EasemobLoginPolicy(mode: .multiDevice(limits), keepCurrentDevice: true))))
        // Created in non-alphabetical order so creation order and name order differ.
        try directory.registerUser(NewUser(username: "zed", password: "zed-pw", nickname: "Zed"), in: chat, nowMs: 1000)
        try directory.registerUser(NewUser(username: "Amy", password: "amy-pw"), in: chat, nowMs: 2000)
        try directory.registerUser(NewUser(username: "kim", password: "kim-pw"), in: chat, nowMs: 3000)
        _ = try directory.issueUserToken(in: chat, username: "amy", password: "amy-pw", ttlSeconds: nil, nowMs: 4000)
        try directory.changePassword("amy", to: "amy-pw-2", in: chat, nowMs: 5000)
        try directory.setActivated(false, user: "kim", in: chat, nowMs: 6000)
        _ = try directory.issueInheritedUserToken(
            in: chat, username: "bot", autoCreateUser: true, ttlSeconds: 60, nowMs: 7000)
        directory.revokeToken(id: 2, in: chat)
        try directory.deleteUser("zed", in: chat)
        try directory.registerUser(NewUser(username: "zed", password: "zed-pw"), in: chat, nowMs: 8000)
        try directory.registerUser(NewUser(username: "solo", password: "solo-pw"), in: demo, nowMs: 9000)
        return directory
    }

    @Test func exportParseLoadExportIsByteIdentical() throws {
        let first = SeedDocument.export(try Self.populatedDirectory()).encoded()
        let reloaded = try SeedDocument.parse(bytes: first).makeDirectory(settings: DirectorySettings(), nowMs: 99_999)
        let second = SeedDocument.export(reloaded).encoded()
        #expect(second == first)
        // And once more, from the reloaded directory.
        let third = SeedDocument.export(
            try SeedDocument.parse(bytes: second).makeDirectory(settings: DirectorySettings(), nowMs: 1)
        ).encoded()
        #expect(third == first)
    }

    @Test func reloadedDirectoryEqualsTheOriginal() throws {
        let original = try Self.populatedDirectory()
        let bytes = SeedDocument.export(original).encoded()
        let reloaded = try SeedDocument.parse(bytes: bytes).makeDirectory(settings: original.settings, nowMs: 0)
        let chat = try AppKey(parsing: "acme#chat")
        // Everything but the next user sequence, which a seed derives from the highest one kept.
        #expect(reloaded.appKeys == original.appKeys)
        for key in original.appKeys {
            let before = try original.app(key)
            let after = try reloaded.app(key)
            #expect(after.uuid == before.uuid)
            #expect(after.settings == before.settings)
            #expect(after.clientID == before.clientID)
            #expect(after.clientSecret == before.clientSecret)
            #expect(after.signingKey == before.signingKey)
            #expect(after.nextTokenSerial == before.nextTokenSerial)
            #expect(after.revokedTokenSerials == before.revokedTokenSerials)
            #expect(after.users == before.users)
            #expect(after.orderedUsernames == before.orderedUsernames)
        }
        #expect(try reloaded.app(chat).orderedUsernames == ["amy", "kim", "bot", "zed"])
        #expect(
            try reloaded.users(in: chat, limit: 2, cursor: nil) == original.users(in: chat, limit: 2, cursor: nil))
    }

    @Test func exportHoldsHashesNeverPlainPasswords() throws {
        let text = String(decoding: SeedDocument.export(try Self.populatedDirectory()).encoded(), as: UTF8.self)
        for password in ["zed-pw", "amy-pw", "kim-pw", "solo-pw"] { #expect(!text.contains(password)) }
        #expect(!text.contains(#""password""#))
        #expect(text.contains(#""algorithm": "pbkdf2-sha256""#))
    }

    @Test func exportSortsAppsAndUsersByName() throws {
        let document = SeedDocument.export(try Self.populatedDirectory())
        #expect(document.apps.map(\.appKey.description) == ["acme#chat", "acme#demo"])
        #expect(document.apps[0].users.map(\.username) == ["amy", "bot", "kim", "zed"])
        #expect(document.apps[0].users.map(\.sequence) == [2, 4, 3, 5])
        #expect(document.apps[0].users.map(\.minimumTokenID) == [2, 2, 1, 3])
        #expect(document.apps[0].revokedTokenIDs == [2])
        #expect(document.apps[0].nextTokenID == 3)
        #expect(document.apps[0].users[1].password == nil)
    }

    @Test func completeExampleIsInCanonicalForm() throws {
        let document = try SeedExamples.document(SeedExamples.complete)
        #expect(String(decoding: document.encoded(), as: UTF8.self) == SeedExamples.complete)
        let loaded = try document.makeDirectory(settings: DirectorySettings(), nowMs: 0)
        #expect(SeedDocument.export(loaded).encoded() == SeedExamples.bytes(SeedExamples.complete))
    }

    @Test func encodingOrdersAppsUsersAndRevokedIDs() throws {
        let document = SeedDocument(apps: [
            SeedApp(appKey: try AppKey(parsing: "b#b"), revokedTokenIDs: [9, 2]),
            SeedApp(
                appKey: try AppKey(parsing: "a#a"),
                users: [SeedUser(username: "y", password: .plain("p")), SeedUser(username: "x")]),
        ])
        let expected = """
            {
              "version": 1,
              "apps": [
                {
                  "appKey": "a#a",
                  "registrationMode": "authorized",
                  "defaultTokenTTLSeconds": 604800,
                  "serviceEnabled": true,
                  "activeUserLimit": null,
                  "restRateLimitPerSecond": null,
                  "loginPolicy": {
                    "vendor": "easemob",
                    "mode": "multiDevice",
                    "deviceLimits": {
                      "default": 4
                    },
                    "keepCurrentDevice": false
                  },
                  "revokedTokenIds": [],
                  "users": [
                    {
                      "username": "x",
                      "nickname": null,
                      "activated": true
                    },
                    {
                      "username": "y",
                      "password": "p",
                      "nickname": null,
                      "activated": true
                    }
                  ]
                },
                {
                  "appKey": "b#b",
                  "registrationMode": "authorized",
                  "defaultTokenTTLSeconds": 604800,
                  "serviceEnabled": true,
                  "activeUserLimit": null,
                  "restRateLimitPerSecond": null,
                  "loginPolicy": {
                    "vendor": "easemob",
                    "mode": "multiDevice",
                    "deviceLimits": {
                      "default": 4
                    },
                    "keepCurrentDevice": false
                  },
                  "revokedTokenIds": [
                    2,
                    9
                  ],
                  "users": []
                }
              ]
            }

            """
        #expect(String(decoding: document.encoded(), as: UTF8.self) == expected)
        #expect(try SeedDocument.parse(bytes: document.encoded()).encoded() == document.encoded())
    }

    @Test func loginPoliciesAreExportedInFullAndInFixedOrder() throws {
        let directory = try Self.populatedDirectory()
        let text = String(decoding: SeedDocument.export(directory).encoded(), as: UTF8.self)
        #expect(text.contains("""
                  "loginPolicy": {
                    "vendor": "easemob",
                    "mode": "multiDevice",
                    "deviceLimits": {
                      "default": 3,
                      "mobile": 3,
                      "web": 0,
                      "custom:42": 2
                    },
                    "keepCurrentDevice": true
                  },
            """))
        #expect(text.contains("""
                  "loginPolicy": {
                    "vendor": "openim",
                    "policy": 5
                  },
            """))
    }

    @Test(arguments: [
        LoginPolicy.easemob(EasemobLoginPolicy(mode: .singleDevice(.newKicksOld))),
        .easemob(EasemobLoginPolicy(mode: .singleDevice(.firstDeviceWins), keepCurrentDevice: true)),
        .easemob(EasemobLoginPolicy(keepCurrentDevice: true)),
        .openIM(.defaultNotKick), .openIM(.allLoginButSameTermKick), .openIM(.allLoginButSameClassKick),
        .openIM(.pcAndOther), .easemobDefault,
    ])
    func everyPolicyFormRoundTrips(_ policy: LoginPolicy) throws {
        var directory = Directory(settings: DirectorySettings(passwordIterations: 1))
        let key = try AppKey(parsing: "o#a")
        try directory.createApp(key, settings: AppSettings(loginPolicy: policy))
        let first = SeedDocument.export(directory).encoded()
        let reloaded = try SeedDocument.parse(bytes: first).makeDirectory(settings: directory.settings, nowMs: 0)
        #expect(try reloaded.app(key).settings.loginPolicy == policy)
        #expect(SeedDocument.export(reloaded).encoded() == first)
    }

    @Test func singleDeviceExportNamesTheRuleAndNoLimits() throws {
        let policy = LoginPolicy.easemob(EasemobLoginPolicy(mode: .singleDevice(.firstDeviceWins), keepCurrentDevice: true))
        let document = SeedDocument(apps: [SeedApp(appKey: try AppKey(parsing: "o#a"), settings: AppSettings(loginPolicy: policy))])
        let app = try #require(JSONValue.parse(document.encoded())["apps"]?.arrayValue?.first)
        #expect(
            app["loginPolicy"]
                == .object([
                    ("vendor", "easemob"), ("mode", "singleDevice"), ("rule", "firstDeviceWins"),
                    ("keepCurrentDevice", true),
                ]))
    }

    @Test func emptyDirectoryExportsAnEmptyAppList() {
        #expect(
            String(decoding: SeedDocument.export(Directory()).encoded(), as: UTF8.self)
                == "{\n  \"version\": 1,\n  \"apps\": []\n}\n")
    }

    @Test func stringsAreEscapedInEncoding() throws {
        let key = try AppKey(parsing: "o#a")
        let document = SeedDocument(apps: [
            SeedApp(appKey: key, users: [SeedUser(username: "u", nickname: "say \"hi\"\n\\ 你好")])
        ])
        let reparsed = try SeedDocument.parse(bytes: document.encoded())
        #expect(reparsed.apps[0].users[0].nickname == "say \"hi\"\n\\ 你好")
        #expect(String(decoding: document.encoded(), as: UTF8.self).contains(#""nickname": "say \"hi\"\n\\ 你好""#))
    }
}
