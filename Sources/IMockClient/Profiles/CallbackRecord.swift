import IMockCore

/// One callback as the vendor SDK would call it: what the harness records and matches.
public struct CallbackRecord: Sendable, Equatable {
    /// The device (its UUID) the callback fired on.
    public var device: String
    /// The vocabulary.
    public var profile: SDKProfile
    /// The vendor's callback name, e.g. `connectionStateDidChange`, `onKickedOffline`.
    public var name: String
    /// The arguments, named as in the vendor's signature, in order.
    public var arguments: [CallbackArgument]
    /// The clock time of the event that caused it, epoch ms.
    public var timeMs: Int64
    /// Its place in the one order of every callback of the clients sharing a
    /// ``CallbackSequencer`` (1, 2, 3 …); 0 for a client without one.
    public var sequence: UInt64

    /// Creates a record.
    public init(
        device: String, profile: SDKProfile, name: String, arguments: [CallbackArgument] = [], timeMs: Int64,
        sequence: UInt64 = 0
    ) {
        self.device = device
        self.profile = profile
        self.name = name
        self.arguments = arguments
        self.timeMs = timeMs
        self.sequence = sequence
    }

    /// `name(arg: value, …)`: compact form for logs and tests.
    public var summary: String { Self.summary(name: name, arguments: arguments) }

    /// `name(arg: value, …)` of any callback (the harness renders what external adapters report so).
    public static func summary(name: String, arguments: [CallbackArgument]) -> String {
        guard !arguments.isEmpty else { return name }
        return name + "(" + arguments.map { "\($0.name): \($0.value.encodedString)" }.joined(separator: ", ") + ")"
    }
}

/// A named argument of a callback.
public struct CallbackArgument: Sendable, Equatable {
    /// The parameter name.
    public var name: String
    /// The value (`null` for a nil error).
    public var value: JSONValue

    /// Creates an argument.
    public init(_ name: String, _ value: JSONValue) {
        self.name = name
        self.value = value
    }
}
