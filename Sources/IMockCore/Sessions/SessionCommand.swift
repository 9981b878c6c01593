/// A request's tag: the dialect's own request id, opaque to the engine, handed back with the
/// reply (an imock JSON `id`, an msync meta id, an OpenIM `msgIncr` …).
public struct RequestTag: Hashable, Sendable, CustomStringConvertible {
    /// The dialect's id as text.
    public let rawValue: String

    /// Wraps a dialect's id.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
}

/// What a device asks of the engine, decoded from its dialect: the vocabulary every wire
/// dialect translates into (docs/ARCHITECTURE.md).
public enum SessionCommand: Sendable, Equatable {
    /// Log this connection in.
    case login(RequestTag, LoginRequest)
    /// A liveness probe, answered with the server time; allowed before login. A dialect whose
    /// pings carry no id passes nil.
    case ping(RequestTag?)
    /// Replace the session's token with a new one of the same user and app.
    case renewToken(RequestTag, token: String)
    /// End the session; `unbindDeviceToken` asks to unbind the push token too.
    case logout(RequestTag, unbindDeviceToken: Bool)
    /// List the user's logged-in devices.
    case devices(RequestTag)
    /// A 1:1 text message to user `to`.
    case send(RequestTag, to: String, text: String)
    /// The device stored offline message `messageId`; it is never delivered again.
    case ack(RequestTag, messageId: String)

    /// The request's tag, when it has one.
    public var tag: RequestTag? {
        switch self {
        case .login(let tag, _), .renewToken(let tag, _), .logout(let tag, _), .devices(let tag), .send(let tag, _, _),
            .ack(let tag, _):
            tag
        case .ping(let tag): tag
        }
    }
}

/// Server-behaviour faults that apply to one command, decided by the shell's fault book before
/// the command runs (docs/CONTROL-API.md, faults `failUnbind`, `failSync`): an input of the
/// command, never state of the engine.
public struct CommandFaults: Sendable, Equatable {
    /// Data-sync types whose finish carries an error (303).
    public var failingSyncTypes: Set<SyncType>
    /// A `logout` that unbinds the device token fails (212) and the session stays (E8).
    public var failUnbind: Bool

    /// No faults.
    public init(failingSyncTypes: Set<SyncType> = [], failUnbind: Bool = false) {
        self.failingSyncTypes = failingSyncTypes
        self.failUnbind = failUnbind
    }

    /// No fault applies.
    public static let none = CommandFaults()
}
