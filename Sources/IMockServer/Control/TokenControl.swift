import IMockCore
import IMockNet

/// Token faults and inspection (docs/CONTROL-API.md § State, Tokens): revoke a user's tokens
/// or one token by id, expire a user's tokens now (`token.expired` + close 4108 on every live
/// session, and the tokens refused from then on), and list what the server knows of the
/// tokens it issued.
enum TokenControl {
    static let routes: [ControlRoute] = [
        ControlRoute("POST", "/_imock/apps/{org}/{app}/tokens/revoke") { context, request throws(ControlError) in
            try request.allowOnly(["user", "tokenId"])
            let key = try request.appKey(in: context.directory)
            let user = try request.string("user")
            let tokenID = try request.int("tokenId", in: 1...ValueLimits.maximumCounter)
            switch (user, tokenID) {
            case (let user?, nil):
                let minimum = try context.run { domain throws(DomainError) in try domain.revokeAllTokens(of: user, in: key) }
                return ["user": .string(minimum.user), "minimumTokenId": .int(Int64(clamping: minimum.id))]
            case (nil, let id?):
                let next = context.directory.apps[key]?.nextTokenSerial ?? 1
                guard UInt64(id) < next else { throw .notFound("app \(key) has issued no token with id \(id)") }
                context.domain.value.directory.revokeToken(id: UInt64(id), in: key)
                return ["revokedTokenId": .int(id)]
            default:
                throw .badRequest("give exactly one of 'user' and 'tokenId'")
            }
        },
        ControlRoute("POST", "/_imock/apps/{org}/{app}/tokens/expire") { context, request throws(ControlError) in
            try request.allowOnly(["user"])
            let key = try request.appKey(in: context.directory)
            let user = try request.requiredString("user")
            let now = context.nowMs
            let expired = try context.run { domain throws(DomainError) in
                try domain.expireTokens(of: user, in: key, nowMs: now)
            }
            context.perform(expired.outputs)
            return [
                "user": .string(expired.user), "minimumTokenId": .int(Int64(clamping: expired.minimumTokenID)),
                "expired": .array(expired.resources.map { .string($0) }),
            ]
        },
        ControlRoute("GET", "/_imock/apps/{org}/{app}/tokens") { context, request throws(ControlError) in
            let key = try request.appKey(in: context.directory)
            let filter = try TokenListing.filter(request)
            guard let app = context.directory.apps[key] else { throw .notFound("no app \(key)") }
            return TokenListing.json(
                app, filter: filter, sessions: context.domain.value.engine.sessions(in: key), nowMs: context.nowMs)
        },
    ]
}
