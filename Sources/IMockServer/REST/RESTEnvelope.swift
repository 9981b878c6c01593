import IMockCore
import IMockNet

/// The Usergrid `ApiResponse` success envelope. Nil fields are omitted; keys come out in
/// the order action, application, params, path, uri, entities, data, timestamp, duration,
/// organization, applicationName, count, cursor.
struct RESTEnvelope {
    var action: String
    var application: String?
    var params: JSONValue?
    var path: String?
    var uri: String?
    var entities: [JSONValue]?
    var data: JSONValue?
    var organization: String?
    var applicationName: String?
    var count: Int?
    var cursor: String?

    init(action: String) { self.action = action }

    /// An envelope carrying the app fields (application, organization, applicationName).
    init(action: String, app: RESTApp, path: String?, uri: String?) {
        self.action = action
        application = app.uuid
        organization = app.key.org
        applicationName = app.key.app
        self.path = path
        self.uri = uri
    }

    func json(nowMs: Int64) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("action", .string(action))]
        if let application { members.append(("application", .string(application))) }
        if let params { members.append(("params", params)) }
        if let path { members.append(("path", .string(path))) }
        if let uri { members.append(("uri", .string(uri))) }
        if let entities { members.append(("entities", .array(entities))) }
        if let data { members.append(("data", data)) }
        members.append(("timestamp", .int(nowMs)))
        members.append(("duration", 0))
        if let organization { members.append(("organization", .string(organization))) }
        if let applicationName { members.append(("applicationName", .string(applicationName))) }
        if let count { members.append(("count", .int(Int64(count)))) }
        if let cursor { members.append(("cursor", .string(cursor))) }
        return .object(members)
    }

    func response(nowMs: Int64) -> HTTPResponse {
        .json(status: 200, json(nowMs: nowMs).encoded())
    }
}

extension User {
    /// The Easemob user entity: uuid, type, created, modified, username, activated, nickname?.
    var entity: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("uuid", .string(uuid)), ("type", "user"), ("created", .int(createdMs)), ("modified", .int(modifiedMs)),
            ("username", .string(username)), ("activated", .bool(activated)),
        ]
        if let nickname { members.append(("nickname", .string(nickname))) }
        return .object(members)
    }
}
