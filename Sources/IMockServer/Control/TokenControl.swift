import IMockCore

/// Token faults and inspection (docs/CONTROL-API.md § State, Tokens): revoke a user's tokens
/// or one token by id, expire a user's tokens now (`token.expired` + close 4108 on every live
/// session, and the tokens refused from then on), and list what the server knows of the
/// tokens it issued.
enum TokenControl {
    static let routes: [ControlRoute] = [
        ControlRoute("POST", "/_imock/apps/{org}/{app}/tokens/revoke") { server, request throws(ControlError) in
            try request.allowOnly(["user", "tokenId"])
            let key = try request.appKey(in: server.rest.directory)
            let user = try request.string("user")
            let tokenID = try request.int("tokenId", in: 1...ValueLimits.maximumCounter)
            switch (user, tokenID) {
            case (let user?, nil):
                let minimum = try revokeAll(of: user, in: key, server)
                return ["user": .string(minimum.user), "minimumTokenId": .int(Int64(clamping: minimum.id))]
            case (nil, let id?):
                let next = server.rest.directory.apps[key]?.nextTokenSerial ?? 1
                guard UInt64(id) < next else { throw .notFound("app \(key) has issued no token with id \(id)") }
                server.rest.directory.revokeToken(id: UInt64(id), in: key)
                return ["revokedTokenId": .int(id)]
            default:
                throw .badRequest("give exactly one of 'user' and 'tokenId'")
            }
        },
        ControlRoute("POST", "/_imock/apps/{org}/{app}/tokens/expire") { server, request throws(ControlError) in
            try request.allowOnly(["user"])
            let key = try request.appKey(in: server.rest.directory)
            let minimum = try revokeAll(of: try request.requiredString("user"), in: key, server)
            let sessions = server.hub.engine.sessions(of: minimum.user, in: key)
            let now = server.clock.nowMs
            server.hub.run { $0.expireTokens(app: key, user: minimum.user, nowMs: now) }
            return [
                "user": .string(minimum.user), "minimumTokenId": .int(Int64(clamping: minimum.id)),
                "expired": .array(sessions.map { .string($0.device.resource) }),
            ]
        },
        ControlRoute("GET", "/_imock/apps/{org}/{app}/tokens") { server, request throws(ControlError) in
            let key = try request.appKey(in: server.rest.directory)
            let filter = try TokenListing.filter(request)
            guard let app = server.rest.directory.apps[key] else { throw .notFound("no app \(key)") }
            return TokenListing.json(
                app, filter: filter, sessions: server.hub.engine.sessions(in: key), nowMs: server.clock.nowMs)
        },
    ]

    /// Refuses every token issued so far to `user`; returns the canonical name and the new
    /// minimum token id.
    private static func revokeAll(of user: String, in key: AppKey, _ server: MockServer) throws(ControlError)
        -> (user: String, id: UInt64)
    {
        do throws(DirectoryError) {
            try server.rest.directory.revokeAllTokens(of: user, in: key)
            let stored = try server.rest.directory.user(user, in: key)
            return (stored.username, stored.minimumTokenSerial)
        } catch {
            throw .notFound("no user '\(user)' in \(key)")
        }
    }
}
