import Testing

@testable import IMockCore

/// One malformed seed and the exact error it must get.
struct SeedErrorCase: Sendable, CustomTestStringConvertible {
    let json: String
    let path: String
    let message: String

    var testDescription: String { path.isEmpty ? message : "\(path): \(message)" }

    /// `member` as the second app (`apps[1]`) after a valid `o#a`.
    static func app(_ member: String, _ path: String, _ message: String) -> SeedErrorCase {
        SeedErrorCase(json: #"{"version":1,"apps":[{"appKey":"o#a"},\#(member)]}"#, path: path, message: message)
    }

    /// `member` as the second user (`apps[0].users[1]`) after a valid `a`.
    static func user(_ member: String, _ path: String, _ message: String) -> SeedErrorCase {
        SeedErrorCase(
            json: #"{"version":1,"apps":[{"appKey":"o#a","users":[{"username":"a"},\#(member)]}]}"#, path: path,
            message: message)
    }

    static func document(_ json: String, _ path: String, _ message: String) -> SeedErrorCase {
        SeedErrorCase(json: json, path: path, message: message)
    }
}

private let long129 = String(repeating: "x", count: 129)
private let key32 = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
private let hash16 = "AAECAwQFBgcICQoLDA0ODw=="
private let validHash = #""algorithm":"pbkdf2-sha256","iterations":1000,"salt":"AAEC","hash":"\#(key32)""#

private let documentCases: [SeedErrorCase] = [
    .document("@", "", "not valid JSON: unexpected character at byte 0"),
    .document("", "", "not valid JSON: unexpected end of input at byte 0"),
    .document(#"{"version":1,"apps":[]} x"#, "", "not valid JSON: data after the JSON value at byte 24"),
    .document("[]", "", "must be an object"),
    .document(#"{"apps":[]}"#, "version", "is required"),
    .document(#"{"version":2,"apps":[]}"#, "version", "unsupported version 2 (this build reads 1)"),
    .document(#"{"version":"1","apps":[]}"#, "version", "must be an integer"),
    .document(#"{"version":1.0,"apps":[]}"#, "version", "must be an integer"),
    .document(#"{"version":1}"#, "apps", "is required"),
    .document(#"{"version":1,"apps":{}}"#, "apps", "must be an array"),
    .document(#"{"version":1,"apps":[],"app":[]}"#, "app", "unknown key"),
    .document(#"{"version":1,"version":1,"apps":[]}"#, "version", "duplicate key"),
]

private let appCases: [SeedErrorCase] = [
    .app("5", "apps[1]", "must be an object"),
    .app("{}", "apps[1].appKey", "is required"),
    .app(#"{"appKey":7}"#, "apps[1].appKey", "must be a string"),
    .app(#"{"appKey":"oa"}"#, "apps[1].appKey", "app key [oa] is not of the form org#app"),
    .app(#"{"appKey":"o#A"}"#, "apps[1].appKey", "app name [A] is not legal"),
    .app(#"{"appKey":"o!#a"}"#, "apps[1].appKey", "org name [o!] is not legal"),
    .app(#"{"appKey":"o#a"}"#, "apps[1].appKey", "duplicate app key o#a (also apps[0])"),
    .app(#"{"appKey":"o#b","registratonMode":"open"}"#, "apps[1].registratonMode", "unknown key"),
    .app(#"{"appKey":"o#b","users":[],"users":[]}"#, "apps[1].users", "duplicate key"),
    .app(#"{"appKey":"o#b","registrationMode":"closed"}"#, "apps[1].registrationMode", #"must be "open" or "authorized""#),
    .app(#"{"appKey":"o#b","uuid":"ABC"}"#, "apps[1].uuid", "must be a lower-case UUID (8-4-4-4-12 hex digits)"),
    .app(
        #"{"appKey":"o#b","uuid":"5D0A3C1E-8F2B-4C6D-9E7A-1B2C3D4E5F60"}"#, "apps[1].uuid",
        "must be a lower-case UUID (8-4-4-4-12 hex digits)"),
    .app(#"{"appKey":"o#b","clientId":""}"#, "apps[1].clientId", "must be 1 to 128 bytes"),
    .app(#"{"appKey":"o#b","clientSecret":"\#(long129)"}"#, "apps[1].clientSecret", "must be 1 to 128 bytes"),
    .app(#"{"appKey":"o#b","defaultTokenTTLSeconds":-1}"#, "apps[1].defaultTokenTTLSeconds", "must be 0 to 3153600000"),
    .app(
        #"{"appKey":"o#b","defaultTokenTTLSeconds":3153600001}"#, "apps[1].defaultTokenTTLSeconds",
        "must be 0 to 3153600000"),
    .app(#"{"appKey":"o#b","defaultTokenTTLSeconds":1.5}"#, "apps[1].defaultTokenTTLSeconds", "must be an integer"),
    .app(#"{"appKey":"o#b","serviceEnabled":"yes"}"#, "apps[1].serviceEnabled", "must be a boolean"),
    .app(#"{"appKey":"o#b","activeUserLimit":-1}"#, "apps[1].activeUserLimit", "must be 0 to 2147483647"),
    .app(#"{"appKey":"o#b","activeUserLimit":"5"}"#, "apps[1].activeUserLimit", "must be an integer or null"),
    .app(#"{"appKey":"o#b","restRateLimitPerSecond":0}"#, "apps[1].restRateLimitPerSecond", "must be at least 1"),
    .app(#"{"appKey":"o#b","devicesPerGroup":4}"#, "apps[1].devicesPerGroup", "unknown key"),
    .app(#"{"appKey":"o#b","signingKey":"AAAA"}"#, "apps[1].signingKey", "must be 32 bytes (got 3)"),
    .app(#"{"appKey":"o#b","signingKey":"AAA"}"#, "apps[1].signingKey", "is not valid base64 (RFC 4648 with padding)"),
    .app(
        #"{"appKey":"o#b","signingKey":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"}"#, "apps[1].signingKey",
        "is not valid base64 (RFC 4648 with padding)"),
    .app(#"{"appKey":"o#b","signingKey":"-_-_"}"#, "apps[1].signingKey", "is not valid base64 (RFC 4648 with padding)"),
    .app(#"{"appKey":"o#b","nextTokenId":0}"#, "apps[1].nextTokenId", "must be 1 to 9007199254740991"),
    .app(#"{"appKey":"o#b","nextTokenId":-1}"#, "apps[1].nextTokenId", "must be 0 to 9007199254740991"),
    .app(#"{"appKey":"o#b","revokedTokenIds":[1,1]}"#, "apps[1].revokedTokenIds[1]", "duplicate id 1"),
    .app(#"{"appKey":"o#b","revokedTokenIds":["1"]}"#, "apps[1].revokedTokenIds[0]", "must be an integer"),
    .app(#"{"appKey":"o#b","revokedTokenIds":[-1]}"#, "apps[1].revokedTokenIds[0]", "must be 0 to 9007199254740991"),
    .app(#"{"appKey":"o#b","revokedTokenIds":3}"#, "apps[1].revokedTokenIds", "must be an array"),
    .app(#"{"appKey":"o#b","users":{}}"#, "apps[1].users", "must be an array"),
]

/// `policy` as the `loginPolicy` of the second app.
private func policy(_ policy: String, _ path: String, _ message: String) -> SeedErrorCase {
    .app(#"{"appKey":"o#b","loginPolicy":\#(policy)}"#, "apps[1].loginPolicy" + path, message)
}

private let loginPolicyCases: [SeedErrorCase] = [
    policy("null", "", "must be an object"),
    policy(#""easemob""#, "", "must be an object"),
    policy("{}", ".vendor", "is required"),
    policy(#"{"vendor":1}"#, ".vendor", "must be a string"),
    policy(#"{"vendor":"agora"}"#, ".vendor", #"must be "easemob" or "openim""#),
    policy(#"{"vendor":"easemob","vendor":"easemob"}"#, ".vendor", "duplicate key"),
    policy(#"{"vendor":"easemob","limits":{}}"#, ".limits", "unknown key"),
    policy(#"{"vendor":"easemob","policy":1}"#, ".policy", "unknown key"),
    policy(#"{"vendor":"openim","mode":"multiDevice"}"#, ".mode", "unknown key"),
    policy(#"{"vendor":"openim","keepCurrentDevice":false}"#, ".keepCurrentDevice", "unknown key"),
    policy(#"{"vendor":"easemob","mode":"multi"}"#, ".mode", #"must be "multiDevice" or "singleDevice""#),
    policy(#"{"vendor":"easemob","mode":null}"#, ".mode", "must be a string"),
    policy(#"{"vendor":"easemob","mode":"singleDevice","rule":"oldWins"}"#, ".rule", #"must be "newKicksOld" or "firstDeviceWins""#),
    policy(#"{"vendor":"easemob","mode":"singleDevice","rule":true}"#, ".rule", "must be a string"),
    policy(#"{"vendor":"easemob","rule":"newKicksOld"}"#, ".rule", #"is only allowed with "mode": "singleDevice""#),
    policy(
        #"{"vendor":"easemob","mode":"singleDevice","deviceLimits":{}}"#, ".deviceLimits",
        #"is only allowed with "mode": "multiDevice""#),
    policy(#"{"vendor":"easemob","keepCurrentDevice":"yes"}"#, ".keepCurrentDevice", "must be a boolean"),
    policy(#"{"vendor":"easemob","deviceLimits":4}"#, ".deviceLimits", "must be an object"),
    policy(#"{"vendor":"easemob","deviceLimits":{"tablet":1}}"#, ".deviceLimits.tablet", "unknown key"),
    policy(#"{"vendor":"easemob","deviceLimits":{"Mobile":1}}"#, ".deviceLimits.Mobile", "unknown key"),
    policy(#"{"vendor":"easemob","deviceLimits":{"web":1,"web":2}}"#, ".deviceLimits.web", "duplicate key"),
    policy(#"{"vendor":"easemob","deviceLimits":{"mobile":-1}}"#, ".deviceLimits.mobile", "must not be negative"),
    policy(#"{"vendor":"easemob","deviceLimits":{"default":-4}}"#, ".deviceLimits.default", "must not be negative"),
    policy(#"{"vendor":"easemob","deviceLimits":{"desktop":"2"}}"#, ".deviceLimits.desktop", "must be an integer"),
    policy(#"{"vendor":"easemob","deviceLimits":{"linux":1.5}}"#, ".deviceLimits.linux", "must be an integer"),
    policy(#"{"vendor":"easemob","deviceLimits":{"web":null}}"#, ".deviceLimits.web", "must be an integer"),
    // Names are checked before values, like every other object of the seed.
    policy(#"{"vendor":"easemob","deviceLimits":{"web":-1,"tv":1}}"#, ".deviceLimits.tv", "unknown key"),
    policy(
        #"{"vendor":"easemob","deviceLimits":{"custom:0":1}}"#, ".deviceLimits.custom:0",
        "custom platform must be custom:1 to custom:100"),
    policy(
        #"{"vendor":"easemob","deviceLimits":{"custom:101":1}}"#, ".deviceLimits.custom:101",
        "custom platform must be custom:1 to custom:100"),
    policy(
        #"{"vendor":"easemob","deviceLimits":{"custom:07":1}}"#, ".deviceLimits.custom:07",
        "custom platform must be custom:1 to custom:100"),
    policy(
        #"{"vendor":"easemob","deviceLimits":{"custom:":1}}"#, ".deviceLimits.custom:",
        "custom platform must be custom:1 to custom:100"),
    policy(
        #"{"vendor":"easemob","deviceLimits":{"custom:-5":1}}"#, ".deviceLimits.custom:-5",
        "custom platform must be custom:1 to custom:100"),
    policy(
        #"{"vendor":"easemob","deviceLimits":{"custom:99999999999999999999":1}}"#,
        ".deviceLimits.custom:99999999999999999999", "custom platform must be custom:1 to custom:100"),
    policy(#"{"vendor":"easemob","deviceLimits":{"custom:7":-2}}"#, ".deviceLimits.custom:7", "must not be negative"),
    policy(#"{"vendor":"openim","policy":2}"#, ".policy", "must be 0, 1, 4 or 5"),
    policy(#"{"vendor":"openim","policy":-1}"#, ".policy", "must be 0, 1, 4 or 5"),
    policy(#"{"vendor":"openim","policy":9223372036854775807}"#, ".policy", "must be 0, 1, 4 or 5"),
    policy(#"{"vendor":"openim","policy":"1"}"#, ".policy", "must be an integer"),
]

private let userCases: [SeedErrorCase] = [
    .user(#""b""#, "apps[0].users[1]", "must be an object"),
    .user("{}", "apps[0].users[1].username", "is required"),
    .user(#"{"username":"A B"}"#, "apps[0].users[1].username", "username [A B] is not legal"),
    .user(#"{"username":""}"#, "apps[0].users[1].username", "username [] is not legal"),
    .user(
        #"{"username":"\#(String(repeating: "u", count: 65))"}"#, "apps[0].users[1].username",
        "username is longer than 64 bytes"),
    .user(#"{"username":"A"}"#, "apps[0].users[1].username", "duplicate username a (also users[0])"),
    .user(#"{"username":"b","pasword":"x"}"#, "apps[0].users[1].pasword", "unknown key"),
    .user(#"{"username":"b","uuid":"1234"}"#, "apps[0].users[1].uuid", "must be a lower-case UUID (8-4-4-4-12 hex digits)"),
    .user(#"{"username":"b","password":""}"#, "apps[0].users[1].password", "password must not be empty"),
    .user(
        #"{"username":"b","password":"\#(String(repeating: "p", count: 65))"}"#, "apps[0].users[1].password",
        "password is longer than 64 characters"),
    .user(#"{"username":"b","password":5}"#, "apps[0].users[1].password", "must be a string"),
    .user(#"{"username":"b","password":null}"#, "apps[0].users[1].password", "must be a string"),
    .user(
        #"{"username":"b","password":"p","passwordHash":{\#(validHash)}}"#, "apps[0].users[1].passwordHash",
        "conflicts with password (give one of them)"),
    .user(#"{"username":"b","passwordHash":"x"}"#, "apps[0].users[1].passwordHash", "must be an object"),
    .user(
        #"{"username":"b","passwordHash":{"algorithm":"bcrypt","iterations":1,"salt":"AAEC","hash":"\#(key32)"}}"#,
        "apps[0].users[1].passwordHash.algorithm", #"must be "pbkdf2-sha256""#),
    .user(
        #"{"username":"b","passwordHash":{"algorithm":"pbkdf2-sha256","salt":"AAEC","hash":"\#(key32)"}}"#,
        "apps[0].users[1].passwordHash.iterations", "is required"),
    .user(
        #"{"username":"b","passwordHash":{"algorithm":"pbkdf2-sha256","iterations":1000,"hash":"\#(key32)"}}"#,
        "apps[0].users[1].passwordHash.salt", "is required"),
    .user(
        #"{"username":"b","passwordHash":{"algorithm":"pbkdf2-sha256","iterations":1000,"salt":"AAEC"}}"#,
        "apps[0].users[1].passwordHash.hash", "is required"),
    .user(
        #"{"username":"b","passwordHash":{"algorithm":"pbkdf2-sha256","iterations":0,"salt":"AAEC","hash":"\#(key32)"}}"#,
        "apps[0].users[1].passwordHash.iterations", "must be 1 to 10000000"),
    .user(
        #"{"username":"b","passwordHash":{"algorithm":"pbkdf2-sha256","iterations":1,"salt":"","hash":"\#(key32)"}}"#,
        "apps[0].users[1].passwordHash.salt", "must be 1 to 64 bytes (got 0)"),
    .user(
        #"{"username":"b","passwordHash":{"algorithm":"pbkdf2-sha256","iterations":1,"salt":"AAEC","hash":"\#(hash16)"}}"#,
        "apps[0].users[1].passwordHash.hash", "must be 32 bytes (got 16)"),
    .user(
        #"{"username":"b","passwordHash":{\#(validHash),"pepper":"x"}}"#, "apps[0].users[1].passwordHash.pepper",
        "unknown key"),
    .user(
        #"{"username":"b","nickname":"\#(String(repeating: "n", count: 101))"}"#, "apps[0].users[1].nickname",
        "nickname is longer than 100 characters"),
    .user(#"{"username":"b","nickname":5}"#, "apps[0].users[1].nickname", "must be a string or null"),
    .user(#"{"username":"b","activated":null}"#, "apps[0].users[1].activated", "must be a boolean"),
    .user(#"{"username":"b","created":-1}"#, "apps[0].users[1].created", "must be 0 to 253402300799999"),
    .user(#"{"username":"b","modified":"x"}"#, "apps[0].users[1].modified", "must be an integer"),
    .user(#"{"username":"b","sequence":0}"#, "apps[0].users[1].sequence", "must be 1 to 9007199254740991"),
    .user(
        #"{"username":"b","minimumTokenId":2}"#, "apps[0].users[1].minimumTokenId",
        "must be 1 to 1 (the app's nextTokenId)"),
    .user(
        #"{"username":"b","minimumTokenId":0}"#, "apps[0].users[1].minimumTokenId",
        "must be 1 to 1 (the app's nextTokenId)"),
    .document(
        #"{"version":1,"apps":[{"appKey":"o#a","users":[{"username":"a","sequence":4},{"username":"b","sequence":4}]}]}"#,
        "apps[0].users[1].sequence", "duplicate sequence 4 (also users[0])"),
    .document(
        #"""
        {"version":1,"apps":[{"appKey":"o#a","users":[{"username":"a","uuid":"0b6f2a52-3c1d-4e8f-a9b0-c1d2e3f40516"},
         {"username":"b","uuid":"0b6f2a52-3c1d-4e8f-a9b0-c1d2e3f40516"}]}]}
        """#,
        "apps[0].users[1].uuid", "duplicate uuid 0b6f2a52-3c1d-4e8f-a9b0-c1d2e3f40516 (also users[0])"),
]

@Suite struct SeedErrorTests {
    @Test(arguments: documentCases + appCases + loginPolicyCases + userCases)
    func malformedSeedIsRefusedWithItsPath(_ testCase: SeedErrorCase) {
        #expect(throws: SeedError(path: testCase.path, message: testCase.message)) {
            try SeedDocument.parse(bytes: Array(testCase.json.utf8))
        }
    }

    @Test func descriptionJoinsPathAndMessage() {
        #expect(
            SeedError(path: "apps[1].users[3].username", message: "username [A B] is not legal").description
                == "apps[1].users[3].username: username [A B] is not legal")
        #expect(SeedError(path: "", message: "must be an object").description == "must be an object")
    }

    @Test func theBriefsExamplePathIsProduced() throws {
        let users = #"{"username":"u0"},{"username":"u1"},{"username":"u2"},{"username":"A B"}"#
        let json = #"{"version":1,"apps":[{"appKey":"o#a"},{"appKey":"o#b","users":[\#(users)]}]}"#
        let error = try #require(throws: SeedError.self) { try SeedDocument.parse(bytes: Array(json.utf8)) }
        #expect(error.description == "apps[1].users[3].username: username [A B] is not legal")
    }

    @Test func documentsBuiltInCodeAreValidatedByMakeDirectory() throws {
        let key = try AppKey(parsing: "o#a")
        let duplicateApps = SeedDocument(apps: [SeedApp(appKey: key), SeedApp(appKey: key)])
        #expect(throws: SeedError(path: "apps[1].appKey", message: "duplicate app key o#a (also apps[0])")) {
            try duplicateApps.makeDirectory(settings: DirectorySettings(), nowMs: 0)
        }
        let hugeTokenID = SeedDocument(apps: [SeedApp(appKey: key, nextTokenID: UInt64.max)])
        #expect(throws: SeedError(path: "apps[0].nextTokenId", message: "must be 1 to 9007199254740991")) {
            try hugeTokenID.makeDirectory(settings: DirectorySettings(), nowMs: 0)
        }
        let foldedDuplicate = SeedDocument(apps: [
            SeedApp(appKey: key, users: [SeedUser(username: "Ann"), SeedUser(username: "ann")])
        ])
        #expect(throws: SeedError(path: "apps[0].users[1].username", message: "duplicate username ann (also users[0])")) {
            try foldedDuplicate.makeDirectory(settings: DirectorySettings(), nowMs: 0)
        }
    }
}
