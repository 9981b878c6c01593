import IMockCore
import IMockWire

/// OpenIM's `/user/…` routes an SDK and an app server use at login (open-im-server
/// `internal/rpc/user/user.go`, `internal/api/user.go`; reference openim-zim.md §A1).
enum OpenIMUserRoutes {
    /// `user_register {users: [{userID, nickname, faceURL, ex}]}` (admin only). All or none:
    /// every userID valid, given once and new (1102 otherwise). imock keeps the nickname only.
    static func register(_ state: inout Domain, _ request: RESTRequest) -> RESTOutcome {
        OpenIMCall.run(&state, request) { (state, app, caller, fields) throws(OpenIMError) in
            try OpenIMCall.requireAdmin(caller)
            let users = try OpenIMCall.args { () throws(JSONFieldError) in try fields.objects("users") } ?? []
            guard !users.isEmpty else { throw OpenIMError(.args, "users is empty") }
            var entries: [(username: String, nickname: String?)] = []
            for user in users {
                let userID = try OpenIMCall.userID(user)
                guard !userID.contains(":") else { throw OpenIMError(.args, "userID \(userID) contains ':'") }
                let nickname = try OpenIMCall.args { () throws(JSONFieldError) in try user.string("nickname") }
                entries.append((userID, nickname))
            }
            do throws(DirectoryError) {
                try state.directory.registerPasswordlessUsers(entries, in: app.key, nowMs: request.nowMs)
            } catch {
                throw Self.error(error)
            }
            return (nil, [])
        }
    }

    /// `get_users_info {userIDs}`: `{usersInfo: [{userID, nickname, faceURL, ex, createTime,
    /// appMangerLevel, globalRecvMsgOpt}]}` for the users that exist (any valid token).
    static func info(_ state: inout Domain, _ request: RESTRequest) -> RESTOutcome {
        OpenIMCall.run(&state, request) { (state, app, _, fields) throws(OpenIMError) in
            let userIDs = try Self.userIDs(fields)
            let users = userIDs.compactMap { (try? UserFields.normalizeUsername($0)).flatMap { state.directory.userNamed($0, in: app.key) } }
            let info = users.map { user -> JSONValue in
                .object([
                    ("userID", .string(user.username)), ("nickname", .string(user.nickname ?? "")), ("faceURL", ""),
                    ("ex", ""), ("createTime", .int(user.createdMs)), ("appMangerLevel", 1), ("globalRecvMsgOpt", 0),
                ])
            }
            return (.object([("usersInfo", .array(info))]), [])
        }
    }

    /// `get_users_online_status {userIDs}`: `[{userID, status, detailPlatformStatus}]`, an
    /// offline or unknown user with status 0 (any valid token). imock does not echo tokens.
    static func onlineStatus(_ state: inout Domain, _ request: RESTRequest) -> RESTOutcome {
        OpenIMCall.run(&state, request) { (state, app, _, fields) throws(OpenIMError) in
            let userIDs = try Self.userIDs(fields)
            let statuses = userIDs.map { userID -> JSONValue in
                let name = (try? UserFields.normalizeUsername(userID)) ?? userID
                let connections = request.presence.connections(of: name, in: app.key)
                let details = connections.map { connection -> JSONValue in
                    .object([
                        ("platformID", .int(Int64(connection.platform.openIMPlatformID ?? 0))),
                        ("connID", .string(String(connection.connection.rawValue))),
                        ("isBackground", .bool(connection.isBackground)), ("token", ""),
                    ])
                }
                return .object([
                    ("userID", .string(userID)), ("status", .int(connections.isEmpty ? 0 : 1)),
                    ("detailPlatformStatus", .array(details)),
                ])
            }
            return (.array(statuses), [])
        }
    }

    /// `userIDs`: a non-empty array of strings.
    static func userIDs(_ fields: JSONObjectReader) throws(OpenIMError) -> [String] {
        let userIDs = try OpenIMCall.args { () throws(JSONFieldError) in try fields.strings("userIDs") } ?? []
        guard !userIDs.isEmpty else { throw OpenIMError(.args, "userIDs is empty") }
        return userIDs
    }

    /// A directory error in OpenIM's codes.
    static func error(_ error: DirectoryError) -> OpenIMError {
        switch error {
        case .userNotFound: OpenIMError(.recordNotFound, "record not found")
        case .userExists(let name): OpenIMError(.registeredAlready, "userID \(name) is registered already")
        case .userExistsInBatch(let name): OpenIMError(.args, "userID \(name) is repeated")
        case .userNotActivated(let name): OpenIMError(.noPermission, "user \(name) is deactivated")
        case .illegalUsername(let name):
            OpenIMError(.args, "userID \(name) is not an imock username (letters, digits, _ . -)")
        case .usernameTooLong, .nicknameTooLong, .invalidTTL: OpenIMError(.args, "\(error)")
        default: OpenIMError(.serverInternal, "\(error)")
        }
    }
}
