import IMockCore
import IMockNet

/// `GET /_imock/apps/{org}/{app}/tokens[?user=…&state=…]`: the app's recently issued tokens
/// (newest first, at most ``IssuedTokens/defaultCapacity`` kept) with their state now, plus
/// the counters verification works with: the next token id, the individually revoked ids,
/// each user's minimum token id (lower ids of theirs are refused), and the tokens live
/// sessions logged in with. `user` and `state` filter only `tokens`.
enum TokenListing {
    /// The query filters of the listing.
    struct Filter: Equatable {
        /// A canonical username: only that user's tokens.
        var user: String?
        /// Only tokens in this state.
        var state: IssuedTokenState?
    }

    /// The query parameters `user` (a legal username, folded to lower case) and `state`
    /// (`live`, `expired`, `revoked` or `kicked`); anything else is a 400 naming it.
    static func filter(_ request: ControlRequest) throws(ControlError) -> Filter {
        var filter = Filter()
        for (name, value) in request.http.query {
            switch name {
            case "user":
                do {
                    filter.user = try UserFields.normalizeUsername(value)
                } catch {
                    throw .badRequest("'user' must be a legal username; got '\(value)'")
                }
            case "state":
                guard let state = IssuedTokenState(rawValue: value) else {
                    let allowed = IssuedTokenState.allCases.map(\.rawValue).joined(separator: ", ")
                    throw .badRequest("'state' must be one of \(allowed); got '\(value)'")
                }
                filter.state = state
            default:
                throw .badRequest("unknown query parameter '\(name)'; allowed: state, user")
            }
        }
        return filter
    }

    static func json(_ app: App, filter: Filter, sessions: [SessionInfo], nowMs: Int64) -> JSONValue {
        let users = app.users.values.sorted { $0.username < $1.username }
        let tokens = app.issuedTokenStatuses(user: filter.user, state: filter.state, nowMs: nowMs)
        return [
            "tokens": .array(tokens.map(json)),
            "tokenRecordLimit": .int(Int64(app.issuedTokens.capacity)),
            "nextTokenId": .int(Int64(clamping: app.nextTokenSerial)),
            "revokedTokenIds": .array(app.revokedTokenSerials.sorted().map { .int(Int64(clamping: $0)) }),
            "users": .array(users.map { ["user": .string($0.username), "minimumTokenId": .int(Int64(clamping: $0.minimumTokenSerial))] }),
            "sessions": .array(sessions.map { session in
                [
                    "user": .string(session.user), "resource": .string(session.device.resource),
                    "loginTokenId": .int(Int64(clamping: session.device.tokenID)),
                    "tokenExpiresAtMs": session.tokenExpiresAtMs.map { .int($0) } ?? .null,
                    "state": .string(state(of: session, in: app, nowMs: nowMs).rawValue),
                ]
            }),
        ]
    }

    /// `{"id","prefix","kind","subject","issuedAtMs","expiresAtMs","state"}`; `subject` is null
    /// for app tokens, `expiresAtMs` null for tokens that never expire.
    private static func json(_ status: IssuedTokenStatus) -> JSONValue {
        let record = status.record
        return [
            "id": .int(Int64(clamping: record.id)),
            "prefix": .string(record.prefix),
            "kind": .string(record.kind.rawValue),
            "subject": record.subject.map { .string($0) } ?? .null,
            "issuedAtMs": .int(record.issuedAtMs),
            "expiresAtMs": record.expiresAtMs.map { .int($0) } ?? .null,
            "state": .string(status.state.rawValue),
        ]
    }

    /// The state of the token a session logged in with: from its issue record when still kept,
    /// else from the counters (`live`, `expired` or `revoked`).
    private static func state(of session: SessionInfo, in app: App, nowMs: Int64) -> IssuedTokenState {
        let id = session.device.tokenID
        if let record = app.issuedTokens.record(id: id) { return app.state(of: record, nowMs: nowMs) }
        if app.revokedTokenSerials.contains(id) || id < (app.users[session.user]?.minimumTokenSerial ?? .max) {
            return .revoked
        }
        if let expiry = session.tokenExpiresAtMs, nowMs >= expiry { return .expired }
        return .live
    }
}
