import IMockCommon

/// OpenIM's token format: a JWT signed with HS256 (`base64url(header).base64url(payload).
/// base64url(HMAC-SHA256)`), its payload carrying OpenIM's claims `UserID`, `PlatformID`, `exp`
/// and `iat` (seconds; reference openim-zim.md §A1) plus imock's own: the app (`app`), the
/// token id (`jti`) and, for admin tokens, `kind` and the app's client id (`sub`).
///
/// The key is the app's signing key, as for ``TokenCodec``; both formats verify through
/// ``Directory/verifyToken(_:for:nowMs:)``. Times are whole seconds: the claims of an OpenIM
/// token have `issuedAtMs` and `expiresAtMs` on second boundaries.
public enum OpenIMTokenCodec {
    /// The JOSE header of every token: `{"alg":"HS256","typ":"JWT"}`.
    static let header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))

    /// The `UserID` of admin tokens (OpenIM's default `imAdminUser.userIDs`).
    public static let adminUserID = "imAdmin"

    /// Whether `token` has the shape of a JWT (three base64url parts, a JSON header): the
    /// format ``Directory/verifyToken(_:for:nowMs:)`` reads with this codec.
    public static func looksLikeJWT(_ token: String) -> Bool {
        token.hasPrefix("eyJ") && token.utf8.count(where: { $0 == UInt8(ascii: ".") }) == 2
    }

    /// Encodes and signs `claims` (times rounded down to whole seconds) with `key`. A user
    /// token's `UserID` is its subject; an app token's is ``adminUserID``.
    public static func encode(_ claims: TokenClaims, signingKey key: [UInt8]) -> String {
        let payload = Base64URL.encode(payloadJSON(claims).encoded())
        let signingInput = header + "." + payload
        let mac = Crypto.hmacSHA256(key: key, message: Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(mac)
    }

    /// Splits and parses a token without checking its MAC; returns the claims, the signed
    /// bytes (the JWT signing input) and the MAC.
    public static func decodeUnverified(_ token: String) throws(TokenError) -> (
        claims: TokenClaims, signedBytes: [UInt8], mac: [UInt8]
    ) {
        let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3, String(decoding: parts[0], as: UTF8.self) == header,
            let payloadBytes = Base64URL.decode(String(decoding: parts[1], as: UTF8.self)),
            let mac = Base64URL.decode(String(decoding: parts[2], as: UTF8.self)), mac.count == 32,
            let json = try? JSONValue.parse(payloadBytes), let claims = claims(from: json)
        else { throw .malformed }
        let signedBytes = Array(parts[0]) + [UInt8(ascii: ".")] + Array(parts[1])
        return (claims, signedBytes, mac)
    }

    /// The OpenIM `UserID` a token names (its subject, or ``adminUserID`` for an app token).
    public static func userID(of claims: TokenClaims) -> String {
        claims.kind == .app ? adminUserID : claims.subject
    }

    static func payloadJSON(_ claims: TokenClaims) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("UserID", .string(userID(of: claims))),
            ("PlatformID", .int(Int64(claims.platformID ?? 0))),
        ]
        if let expiry = claims.expiresAtMs { members.append(("exp", .int(expiry / 1000))) }
        members.append(("iat", .int(claims.issuedAtMs / 1000)))
        members.append(("app", .string(claims.appKey.description)))
        if claims.kind == .app {
            members.append(("kind", .string(TokenKind.app.rawValue)))
            members.append(("sub", .string(claims.subject)))
        }
        members.append(("jti", .int(Int64(bitPattern: claims.tokenID))))
        return .object(members)
    }

    /// The claims of a decoded payload, or nil when a member is missing, mistyped or out of range.
    static func claims(from json: JSONValue) -> TokenClaims? {
        do {
            let reader = try JSONObjectReader(json)
            guard let appKey = try? AppKey(parsing: try reader.requiredString("app")) else { return nil }
            let kind = try reader.string("kind").map(TokenKind.init(rawValue:)) ?? .user
            guard let kind else { return nil }
            let seconds = (ValueLimits.epochMs.lowerBound / 1000)...(ValueLimits.epochMs.upperBound / 1000)
            let subject = kind == .app ? try reader.requiredString("sub") : try reader.requiredString("UserID")
            return TokenClaims(
                appKey: appKey, subject: subject, kind: kind,
                issuedAtMs: try reader.requiredInt("iat", in: seconds) * 1000,
                expiresAtMs: try reader.int("exp", in: seconds).map { $0 * 1000 },
                tokenID: UInt64(bitPattern: try reader.requiredInt("jti")),
                platformID: Int(try reader.requiredInt("PlatformID", in: 0...Int64(Int32.max))))
        } catch {
            return nil
        }
    }
}
