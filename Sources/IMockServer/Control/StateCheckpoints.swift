import IMockCore
import IMockNet

/// Named per-app checkpoints: `POST …/checkpoints/{name}` saves the app's complete state,
/// `POST …/checkpoints/{name}/restore` puts it back, `GET …/checkpoints` lists the names.
/// Checkpoints live in memory until the server stops; a global reset keeps them.
enum StateCheckpoints {
    /// Longest checkpoint name.
    static let maximumNameLength = 64

    static let routes: [ControlRoute] = [
        ControlRoute("GET", "/_imock/apps/{org}/{app}/checkpoints") { context, request throws(ControlError) in
            let key = try request.appKey(in: context.directory)
            return ["checkpoints": .array(context.domain.value.checkpointNames(of: key).map { .string($0) })]
        },
        ControlRoute("POST", "/_imock/apps/{org}/{app}/checkpoints/{name}") { context, request throws(ControlError) in
            try request.allowOnly([])
            let key = try request.appKey(in: context.directory)
            let name = try checkpointName(request)
            let saved = try context.run { domain throws(DomainError) in try domain.saveCheckpoint(name, of: key) }
            return [
                "checkpoint": .string(name), "app": .string(key.description), "users": .int(Int64(saved.users)),
                "replaced": .bool(saved.replaced),
            ]
        },
        ControlRoute("POST", "/_imock/apps/{org}/{app}/checkpoints/{name}/restore") { context, request throws(ControlError) in
            try request.allowOnly([])
            let key = try request.appKey(in: context.directory)
            let name = try checkpointName(request)
            let now = context.nowMs
            let restored = try context.run { domain throws(DomainError) in
                try domain.restoreCheckpoint(name, of: key, nowMs: now)
            }
            context.perform(restored.outputs)
            return ["restored": .string(name), "app": .string(key.description), "users": .int(Int64(restored.users))]
        },
    ]

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
