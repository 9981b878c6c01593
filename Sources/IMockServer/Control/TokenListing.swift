import IMockCore

/// `GET /_imock/apps/{org}/{app}/tokens`: what the directory keeps about issued tokens. It
/// does not record each token, only counters, so the listing is: the next token id, the
/// individually revoked ids, each user's minimum token id (lower ids of theirs are refused),
/// and the tokens live sessions logged in with, with their state now.
enum TokenListing {
    static func json(_ app: App, sessions: [SessionInfo], nowMs: Int64) -> JSONValue {
        let users = app.users.values.sorted { $0.username < $1.username }
        return [
            "nextTokenId": .int(Int64(clamping: app.nextTokenSerial)),
            "revokedTokenIds": .array(app.revokedTokenSerials.sorted().map { .int(Int64(clamping: $0)) }),
            "users": .array(users.map { ["user": .string($0.username), "minimumTokenId": .int(Int64(clamping: $0.minimumTokenSerial))] }),
            "sessions": .array(sessions.map { session in
                [
                    "user": .string(session.user), "resource": .string(session.device.resource),
                    "loginTokenId": .int(Int64(clamping: session.device.tokenID)),
                    "tokenExpiresAtMs": session.tokenExpiresAtMs.map { .int($0) } ?? .null,
                    "state": .string(state(of: session, in: app, nowMs: nowMs)),
                ]
            }),
        ]
    }

    /// `live`, `expired` or `revoked` for the token a session logged in with.
    private static func state(of session: SessionInfo, in app: App, nowMs: Int64) -> String {
        let id = session.device.tokenID
        if app.revokedTokenSerials.contains(id) || id < (app.users[session.user]?.minimumTokenSerial ?? .max) {
            return "revoked"
        }
        if let expiry = session.tokenExpiresAtMs, nowMs >= expiry { return "expired" }
        return "live"
    }
}
