// Fuzz target `token`: the token verifier (`Directory.verifyToken`, over `TokenCodec`).
//
// A fixed directory (app `acme#chat` with a fixed signing key, user `alice`, and app
// `acme#other`) issues one app token and one user token at start-up. Then, per input:
// - the input as a token: accepted only when it is byte for byte one of the issued tokens,
//   with their claims; never accepted for `acme#other`, which issued nothing;
// - each issued token edited by the input (read as groups of three bytes: replace, insert,
//   delete or flip one byte at a position): accepted only when the edits gave the token back
//   byte for byte;
// - `TokenCodec.decodeUnverified` and `tokenPrefix` on the input never trap.
// Never a trap, never an out-of-bounds access (ASan).

import IMockCore

private let issuedAtMs: Int64 = 1_700_000_000_000
private let chat = try! AppKey(parsing: "acme#chat")
private let other = try! AppKey(parsing: "acme#other")

/// The directory after issuing, and the tokens it issued.
private let fixture: (directory: Directory, tokens: [IssuedToken]) = {
    let document = SeedDocument(apps: [
        SeedApp(
            appKey: chat, clientID: "YXA6fuzzClient", clientSecret: "YXA6fuzzSecret",
            signingKey: Array(0..<32), nextTokenID: 1, users: [SeedUser(username: "alice")]),
        SeedApp(appKey: other, clientID: "YXA6other", clientSecret: "YXA6other", signingKey: Array(32..<64)),
    ])
    var directory = try! document.makeDirectory(settings: DirectorySettings(passwordIterations: 1), nowMs: issuedAtMs)
    let app = try! directory.issueAppToken(
        in: chat, clientID: "YXA6fuzzClient", clientSecret: "YXA6fuzzSecret", ttlSeconds: 0, nowMs: issuedAtMs)
    let user = try! directory.issueInheritedUserToken(
        in: chat, username: "alice", autoCreateUser: false, ttlSeconds: 3600, nowMs: issuedAtMs)
    return (directory, [app, user.token])
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzToken(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzBytes(data, size)
    let text = String(decoding: input, as: UTF8.self)
    _ = try? TokenCodec.decodeUnverified(text)
    _ = tokenPrefix(text)
    checkOnlyIssuedTokensPass(text)
    for issued in fixture.tokens {
        let edited = String(decoding: edit(Array(issued.token.utf8), by: input), as: UTF8.self)
        checkOnlyIssuedTokensPass(edited)
    }
    return 0
}

/// Traps when `token` is accepted without being an issued token, byte for byte.
private func checkOnlyIssuedTokensPass(_ token: String) {
    let now = issuedAtMs + 1
    check((try? fixture.directory.verifyToken(token, for: other, nowMs: now)) == nil, "accepted by an app that issued nothing: \(token)")
    guard let claims = try? fixture.directory.verifyToken(token, for: chat, nowMs: now) else { return }
    let match = fixture.tokens.first { Array($0.token.utf8) == Array(token.utf8) }
    check(match != nil, "accepted a token that was never issued: \(token)")
    check(match?.claims == claims, "an issued token verified with other claims: \(claims)")
}

/// `bytes` with the edits of `script` applied, three bytes per edit: what (replace, insert,
/// delete, flip bits), where (scaled to the length) and which byte.
private func edit(_ bytes: [UInt8], by script: [UInt8]) -> [UInt8] {
    var bytes = bytes
    var index = 0
    while index + 3 <= script.count {
        let (kind, place, value) = (script[index], script[index + 1], script[index + 2])
        index += 3
        let position = Int(place) * bytes.count / 256
        switch kind % 4 {
        case 0 where position < bytes.count: bytes[position] = value
        case 1: bytes.insert(value, at: position)
        case 2 where position < bytes.count: bytes.remove(at: position)
        case 3 where position < bytes.count: bytes[position] ^= value
        default: break
        }
    }
    return bytes
}
