import IMockCommon
/// Whom a token speaks for.
public enum TokenKind: String, Sendable, Equatable {
    /// An app (admin) token, grant `client_credentials`.
    case app
    /// A user token, grant `password` or `inherit`.
    case user
}

/// The signed content of a token.
public struct TokenClaims: Sendable, Equatable {
    /// The app the token belongs to.
    public var appKey: AppKey
    /// The username for user tokens, the client id for app tokens.
    public var subject: String
    /// App or user token.
    public var kind: TokenKind
    /// Issue time, epoch ms.
    public var issuedAtMs: Int64
    /// Expiry, epoch ms; nil = never expires (`ttl` 0).
    public var expiresAtMs: Int64?
    /// Serial number within the app; the revocation set refers to it.
    public var tokenID: UInt64
    /// The OpenIM platform id an OpenIM token is bound to (``OpenIMTokenCodec``); nil for the
    /// `YWMt` tokens, which log in on any platform.
    public var platformID: Int?

    /// Creates claims.
    public init(
        appKey: AppKey, subject: String, kind: TokenKind, issuedAtMs: Int64, expiresAtMs: Int64?, tokenID: UInt64,
        platformID: Int? = nil
    ) {
        self.appKey = appKey
        self.subject = subject
        self.kind = kind
        self.issuedAtMs = issuedAtMs
        self.expiresAtMs = expiresAtMs
        self.tokenID = tokenID
        self.platformID = platformID
    }
}

/// Why a token is refused.
public enum TokenError: Error, Sendable, Equatable {
    /// Not a token of this service: wrong prefix, bad base64url, or claims that do not parse.
    case malformed
    /// The MAC does not match the claims (tampered or forged).
    case badSignature
    /// A valid token of another app.
    case otherApp(AppKey)
    /// The token's expiry has passed.
    case expired
    /// Revoked explicitly, by a password change, or because its subject no longer exists.
    case revoked
    /// Revoked because its session was kicked by a policy that invalidates the kicked token, or
    /// by an OpenIM force logout (OpenIM's `TokenKickedError`, 1506).
    case kicked
}

/// The token wire format: `YWMt` + base64url(claims JSON) + `.` + base64url(HMAC-SHA256).
///
/// `YWMt` is what real Easemob tokens start with (base64 of `ac-`). The MAC covers exactly
/// the claim bytes that are base64url-encoded in the token.
public enum TokenCodec {
    /// Every token starts with this.
    public static let prefix = "YWMt"

    /// Encodes and signs `claims` with `key`.
    public static func encode(_ claims: TokenClaims, signingKey key: [UInt8]) -> String {
        let claimBytes = claimsJSON(claims).encoded()
        let mac = Crypto.hmacSHA256(key: key, message: claimBytes)
        return prefix + Base64URL.encode(claimBytes) + "." + Base64URL.encode(mac)
    }

    /// Splits and parses a token without checking its MAC; returns the claims, the signed
    /// bytes and the MAC.
    public static func decodeUnverified(_ token: String) throws(TokenError) -> (
        claims: TokenClaims, signedBytes: [UInt8], mac: [UInt8]
    ) {
        let bytes = Array(token.utf8)
        guard bytes.starts(with: prefix.utf8) else { throw .malformed }
        let body = bytes[prefix.utf8.count...]
        guard let dot = body.firstIndex(of: UInt8(ascii: ".")), !body[(dot + 1)...].contains(UInt8(ascii: ".")),
            let claimBytes = Base64URL.decode(utf8: body[..<dot]),
            let mac = Base64URL.decode(utf8: body[(dot + 1)...]),
            mac.count == 32,
            let json = try? JSONValue.parse(claimBytes),
            let claims = claims(from: json)
        else { throw .malformed }
        return (claims, claimBytes, mac)
    }

    /// Whether `mac` is the HMAC of `signedBytes` under `key`, compared in constant time.
    public static func verifyMAC(signedBytes: [UInt8], mac: [UInt8], signingKey key: [UInt8]) -> Bool {
        Crypto.constantTimeEquals(Crypto.hmacSHA256(key: key, message: signedBytes), mac)
    }

    /// How a token is shown in logs and listings: its first 4 and last 8 characters around `…`.
    /// Full tokens are never shown. (A plain prefix would be the same for every token: all start
    /// with `YWMt` and the encoding of `{"app":`; the tail is part of the MAC, which tells tokens
    /// apart and, being 48 bits of a 256-bit MAC, helps nobody forge one.) Tokens of 12
    /// characters or fewer are shown as their first 4 only.
    public static func tokenPrefix(_ token: String) -> String {
        let scalars = token.unicodeScalars
        guard scalars.count > 12 else { return String(String.UnicodeScalarView(scalars.prefix(4))) + "…" }
        return String(String.UnicodeScalarView(scalars.prefix(4))) + "…"
            + String(String.UnicodeScalarView(scalars.suffix(8)))
    }

    static func claimsJSON(_ claims: TokenClaims) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("app", .string(claims.appKey.description)),
            ("sub", .string(claims.subject)),
            ("kind", .string(claims.kind.rawValue)),
            ("iat", .int(claims.issuedAtMs)),
        ]
        if let expiry = claims.expiresAtMs { members.append(("exp", .int(expiry))) }
        members.append(("jti", .int(Int64(bitPattern: claims.tokenID))))
        return .object(members)
    }

    /// The claims of a decoded token, or nil when a member is missing, mistyped or out of range
    /// (times within ``ValueLimits/epochMs``, so a token signed with a seeded key cannot bring
    /// absurd times into the timer arithmetic).
    static func claims(from json: JSONValue) -> TokenClaims? {
        do {
            let reader = try JSONObjectReader(json)
            guard let appKey = try? AppKey(parsing: try reader.requiredString("app")),
                let kind = TokenKind(rawValue: try reader.requiredString("kind"))
            else { return nil }
            return TokenClaims(
                appKey: appKey, subject: try reader.requiredString("sub"), kind: kind,
                issuedAtMs: try reader.requiredInt("iat", in: ValueLimits.epochMs),
                expiresAtMs: try reader.int("exp", in: ValueLimits.epochMs),
                tokenID: UInt64(bitPattern: try reader.requiredInt("jti")))
        } catch {
            return nil
        }
    }
}

/// How a token is shown in logs and listings (`YWMt…` and its last 8 characters); see
/// `TokenCodec.tokenPrefix(_:)`.
public func tokenPrefix(_ token: String) -> String { TokenCodec.tokenPrefix(token) }

/// A freshly issued token as the token endpoint reports it.
public struct IssuedToken: Sendable, Equatable {
    /// The token string (`YWMt…`).
    public var token: String
    /// Lifetime in seconds; 0 when it never expires.
    public var expiresInSeconds: Int64
    /// What the token says.
    public var claims: TokenClaims
}
