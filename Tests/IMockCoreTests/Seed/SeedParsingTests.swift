import Testing

@testable import IMockCore

@Suite struct SeedParsingTests {
    @Test func parsesEveryFieldOfTheCompleteExample() throws {
        let document = try SeedExamples.document(SeedExamples.complete)
        #expect(document.apps.count == 1)
        let app = try #require(document.apps.first)
        #expect(app.appKey == (try AppKey(parsing: "acme#chat")))
        #expect(app.uuid == "5d0a3c1e-8f2b-4c6d-9e7a-1b2c3d4e5f60")
        #expect(
            app.settings
                == AppSettings(
                    registrationMode: .authorized, defaultTokenTTLSeconds: 604_800, serviceEnabled: true,
                    activeUserLimit: nil, restRateLimitPerSecond: 100,
                    loginPolicy: .easemob(
                        EasemobLoginPolicy(
                            mode: .multiDevice(try EasemobDeviceLimits(overrides: [.desktop: 2, .custom(7): 1])),
                            keepCurrentDevice: false))))
        #expect(app.clientID == "YXA6acmeChatClient")
        #expect(app.clientSecret == "YXA6acmeChatSecret")
        #expect(app.signingKey == Array(0..<32))
        #expect(app.nextTokenID == 7)
        #expect(app.revokedTokenIDs == [3])
        #expect(app.users.map(\.username) == ["alice", "bob", "robot-1"])
        #expect(
            app.users[0]
                == SeedUser(
                    username: "alice", uuid: "0b6f2a52-3c1d-4e8f-a9b0-c1d2e3f40516",
                    password: .hashed(
                        SeedPasswordHash(
                            iterations: 1000, salt: Array(0xA0..<0xB0),
                            hash: [
                                0x04, 0xF9, 0xC5, 0xF2, 0xCB, 0x8C, 0x93, 0xC5, 0xC2, 0xF0, 0x38, 0xC4, 0x3C, 0xE5, 0xDB,
                                0xE5, 0xB3, 0xFF, 0x6B, 0xAD, 0xDD, 0x69, 0x2A, 0x30, 0x59, 0xF6, 0x50, 0xDC, 0xDD, 0xA9,
                                0x77, 0xC5,
                            ])),
                    nickname: "Alice", activated: true, createdMs: 1_700_000_000_000, modifiedMs: 1_700_000_000_000,
                    sequence: 1, minimumTokenID: 1))
        let bob = app.users[1]
        #expect(bob.activated == false)
        #expect(bob.nickname == nil)
        #expect(bob.modifiedMs == 1_700_000_100_000)
        #expect(bob.minimumTokenID == 5)
        #expect(app.users[2].password == nil)
        #expect(app.users[2].sequence == 3)
    }

    @Test func absentFieldsTakeTheirDefaults() throws {
        let document = try SeedExamples.document(SeedExamples.minimal)
        let app = try #require(document.apps.first)
        #expect(app.appKey == (try AppKey(parsing: "acme#demo")))
        #expect(app.uuid == nil)
        #expect(app.settings == AppSettings(registrationMode: .open))
        #expect(app.settings.defaultTokenTTLSeconds == 604_800)
        #expect(app.settings.serviceEnabled)
        #expect(app.settings.activeUserLimit == nil)
        #expect(app.settings.restRateLimitPerSecond == nil)
        #expect(app.settings.loginPolicy == .easemobDefault)
        #expect(app.clientID == nil)
        #expect(app.clientSecret == nil)
        #expect(app.signingKey == nil)
        #expect(app.nextTokenID == nil)
        #expect(app.revokedTokenIDs == [])
        #expect(
            app.users == [
                SeedUser(username: "alice", password: .plain("alice-password")),
                SeedUser(username: "bob", password: .plain("bob-password"), nickname: "Bob"),
            ])
    }

    @Test func anAppWithOnlyItsKeyGetsAuthorizedModeAndNoUsers() throws {
        let document = try SeedExamples.document(#"{"version":1,"apps":[{"appKey":"o#a"}]}"#)
        #expect(document == SeedDocument(apps: [SeedApp(appKey: try AppKey(parsing: "o#a"))]))
        #expect(document.apps[0].settings.registrationMode == .authorized)
    }

    @Test func nullableFieldsAcceptNull() throws {
        let document = try SeedExamples.document(
            #"""
            {"version":1,"apps":[{"appKey":"o#a","activeUserLimit":null,"restRateLimitPerSecond":null,
             "users":[{"username":"u","nickname":null,"passwordHash":null}]}]}
            """#)
        #expect(document.apps[0].settings.activeUserLimit == nil)
        #expect(document.apps[0].users == [SeedUser(username: "u")])
    }

    @Test func integerSettingsAreRead() throws {
        let document = try SeedExamples.document(
            #"""
            {"version":1,"apps":[{"appKey":"o#a","activeUserLimit":0,"restRateLimitPerSecond":1,
             "defaultTokenTTLSeconds":0,"serviceEnabled":false,"loginPolicy":{"vendor":"openim","policy":0}}]}
            """#)
        #expect(
            document.apps[0].settings
                == AppSettings(
                    defaultTokenTTLSeconds: 0, serviceEnabled: false, activeUserLimit: 0, restRateLimitPerSecond: 1,
                    loginPolicy: .openIM(.defaultNotKick)))
    }

    @Test func loginPolicyExamplesAreRead() throws {
        let document = try SeedExamples.document(SeedExamples.loginPolicies)
        #expect(
            document.apps.map(\.settings.loginPolicy) == [
                .easemob(EasemobLoginPolicy(mode: .multiDevice(try EasemobDeviceLimits(overrides: [.mobile: 2, .custom(7): 1])))),
                .easemob(EasemobLoginPolicy(mode: .singleDevice(.firstDeviceWins), keepCurrentDevice: true)),
                .openIM(.allLoginButSameClassKick),
            ])
    }

    /// Every member of `loginPolicy` but `vendor` may be left out.
    @Test(arguments: [
        (#"{"vendor":"easemob"}"#, LoginPolicy.easemobDefault),
        (#"{"vendor":"easemob","keepCurrentDevice":true}"#, .easemob(EasemobLoginPolicy(keepCurrentDevice: true))),
        (#"{"vendor":"easemob","mode":"multiDevice","deviceLimits":{}}"#, .easemobDefault),
        (#"{"vendor":"easemob","mode":"singleDevice"}"#, .easemob(EasemobLoginPolicy(mode: .singleDevice(.newKicksOld)))),
        (#"{"vendor":"easemob","mode":"singleDevice","rule":"newKicksOld"}"#, .easemob(EasemobLoginPolicy(mode: .singleDevice(.newKicksOld)))),
        (#"{"vendor":"openim"}"#, .openIM(.allLoginButSameTermKick)),
        (#"{"vendor":"openim","policy":5}"#, .openIM(.pcAndOther)),
    ] as [(String, LoginPolicy)])
    func absentLoginPolicyMembersTakeTheirDefaults(_ json: String, _ expected: LoginPolicy) throws {
        let document = try SeedExamples.document(#"{"version":1,"apps":[{"appKey":"o#a","loginPolicy":\#(json)}]}"#)
        #expect(document.apps[0].settings.loginPolicy == expected)
    }

    @Test func deviceLimitsReadEveryGroupAndTheDefault() throws {
        let limits = #"{"linux":0,"custom:100":9,"default":1,"web":3,"custom:1":5,"mobile":4,"desktop":2}"#
        let document = try SeedExamples.document(
            #"{"version":1,"apps":[{"appKey":"o#a","loginPolicy":{"vendor":"easemob","deviceLimits":\#(limits)}}]}"#)
        let expected = try EasemobDeviceLimits(
            defaultLimit: 1, overrides: [.mobile: 4, .desktop: 2, .web: 3, .linux: 0, .custom(1): 5, .custom(100): 9])
        #expect(document.apps[0].settings.loginPolicy == .easemob(EasemobLoginPolicy(mode: .multiDevice(expected))))
    }

    @Test func emptyAppListIsAValidDocument() throws {
        #expect(try SeedExamples.document(#"{"apps":[],"version":1}"#) == SeedDocument())
    }
}
