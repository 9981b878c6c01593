/// The kind of credential a login, a token renewal or a REST call used — never the token
/// itself: a replay mints a token of the same kind.
public enum RecordedCredential: Sendable, Equatable {
    /// No token.
    case none
    /// A valid app token.
    case app
    /// A valid token of this user.
    case user(String, ttlSeconds: Int64? = nil)
    /// A token the server refused (malformed, forged, expired, revoked, of another app); the
    /// reason in ``TokenError``'s words.
    case refused(String)

    /// What `token` is to `app` at `nowMs`.
    public static func classify(_ token: String?, app: AppKey?, directory: Directory, nowMs: Int64) -> RecordedCredential {
        guard let token else { return .none }
        guard let app else { return .refused("unknownApp") }
        do {
            let claims = try directory.verifyToken(token, for: app, nowMs: nowMs)
            let ttl = claims.expiresAtMs.map { ($0 - claims.issuedAtMs + 999) / 1000 }
            return claims.kind == .app ? .app : .user(claims.subject, ttlSeconds: ttl)
        } catch {
            switch error {
            case .malformed: return .refused("malformed")
            case .badSignature: return .refused("badSignature")
            case .otherApp: return .refused("otherApp")
            case .expired: return .refused("expired")
            case .revoked: return .refused("revoked")
            case .kicked: return .refused("kicked")
            }
        }
    }

    /// `{"kind": "user", "user": "alice"}`, `{"kind": "app"}`, `{"kind": "refused", "reason": …}`.
    public var jsonValue: JSONValue {
        switch self {
        case .none: ["kind": "none"]
        case .app: ["kind": "app"]
        case .user(let user, let ttl):
            .object([("kind", "user"), ("user", .string(user))] + (ttl.map { [("ttlSeconds", .int($0))] } ?? []))
        case .refused(let reason): .object([("kind", "refused"), ("reason", .string(reason))])
        }
    }
}
