import IMockCore


extension ClientFrame {
    /// The frame as a JSON object, `op` first, members in the order of `docs/PROTOCOL.md`.
    /// Optional members with their default value are left out, so the bytes are stable.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        func add(_ key: String, _ value: JSONValue) { members.append((key, value)) }
        switch self {
        case .login(let id, let request):
            add("op", "login")
            add("id", .string(id))
            add("appKey", .string(request.appKey))
            add("user", .string(request.user))
            add("token", .string(request.token))
            add("device", request.device.json)
            if request.autoLogin { add("autoLogin", true) }
            if !request.sync.isEmpty { add("sync", .array(request.sync.map { .string($0.rawValue) })) }
        case .ping(let id):
            add("op", "ping")
            if let id { add("id", .string(id)) }
        case .renewToken(let id, let token):
            add("op", "renewToken")
            add("id", .string(id))
            add("token", .string(token))
        case .logout(let id, let unbind):
            add("op", "logout")
            add("id", .string(id))
            if unbind { add("unbindDeviceToken", true) }
        case .devices(let id):
            add("op", "devices")
            add("id", .string(id))
        case .send(let id, let to, let text):
            add("op", "send")
            add("id", .string(id))
            add("to", .string(to))
            add("text", .string(text))
        case .ack(let id, let messageId):
            add("op", "ack")
            add("id", .string(id))
            add("messageId", .string(messageId))
        }
        return .object(members)
    }

    /// The text frame to send: compact JSON, deterministic byte for byte.
    public var text: String { json.encodedString }
}

extension DeviceDescription {
    /// The `device` object of a `login` frame.
    var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        switch platform {
        case .easemob(.custom(let type)): members.append(("customOSType", .int(Int64(type))))
        case .easemob(let platform): members.append(("os", .string(platform.resourcePrefix)))
        case .openIM(let platform): members.append(("platformId", .int(Int64(platform.rawValue))))
        }
        if !name.isEmpty { members.append(("name", .string(name))) }
        members.append(("uuid", .string(uuid)))
        if let resource { members.append(("resource", .string(resource))) }
        if !extensionInfo.isEmpty { members.append(("extension", .string(extensionInfo))) }
        return .object(members)
    }
}
