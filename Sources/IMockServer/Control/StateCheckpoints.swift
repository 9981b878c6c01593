import IMockCore

/// Named per-app checkpoints: `POST …/checkpoints/{name}` saves the app's complete state,
/// `POST …/checkpoints/{name}/restore` puts it back, `GET …/checkpoints` lists the names.
/// Checkpoints live in memory until the server stops; a global reset keeps them.
enum StateCheckpoints {
    /// Longest checkpoint name.
    static let maximumNameLength = 64

    static let routes: [ControlRoute] = [
        ControlRoute("GET", "/_imock/apps/{org}/{app}/checkpoints") { server, request throws(ControlError) in
            let key = try request.appKey(in: server.rest.directory)
            let prefix = storageKey(key, "")
            let names = server.checkpoints.keys.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
            return ["checkpoints": .array(names.sorted().map { .string($0) })]
        },
        ControlRoute("POST", "/_imock/apps/{org}/{app}/checkpoints/{name}") { server, request throws(ControlError) in
            try request.allowOnly([])
            let key = try request.appKey(in: server.rest.directory)
            let name = try checkpointName(request)
            let state = try StateControl.snapshot(key, in: server)
            let replaced = server.checkpoints.updateValue(SeedDocument(apps: [state]), forKey: storageKey(key, name)) != nil
            return [
                "checkpoint": .string(name), "app": .string(key.description), "users": .int(Int64(state.users.count)),
                "replaced": .bool(replaced),
            ]
        },
        ControlRoute("POST", "/_imock/apps/{org}/{app}/checkpoints/{name}/restore") { server, request throws(ControlError) in
            try request.allowOnly([])
            let key = try request.appKey(in: server.rest.directory)
            let name = try checkpointName(request)
            guard let state = server.checkpoints[storageKey(key, name)]?.apps.first else {
                throw .notFound("app \(key) has no checkpoint '\(name)'")
            }
            try StateControl.replace(key, with: state, in: server)
            return ["restored": .string(name), "app": .string(key.description), "users": .int(Int64(state.users.count))]
        },
    ]

    /// `org#app/name`: checkpoints of different apps never collide.
    private static func storageKey(_ app: AppKey, _ name: String) -> String { "\(app)/\(name)" }

    /// The `{name}` path parameter: 1 to 64 of `A-Z a-z 0-9 . _ -`.
    private static func checkpointName(_ request: ControlRequest) throws(ControlError) -> String {
        let name = request.parameters["name"] ?? ""
        let legal = name.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        guard !name.isEmpty, name.utf8.count <= maximumNameLength, legal else {
            throw .badRequest("checkpoint name '\(name)' must be 1 to \(maximumNameLength) of A-Z a-z 0-9 . _ -")
        }
        return name
    }
}
