import IMockClient

/// A failure a fixture expects because the server, the reference client or an adapter's SDK
/// does not honour its rule yet. It names what it expects — the step that fails, a pattern of
/// the failure's message, or both — so that any other failure (another step, set-up, the server
/// or an adapter not answering) still fails the run; and it may hold only on one transport or
/// through one adapter.
public struct ExpectedFailure: Sendable, Equatable {
    /// Why the failure is expected (shown with `XFAIL`).
    public var reason: String
    /// The index in `steps` of the step that must fail, if named.
    public var step: Int?
    /// A regular expression the failure's message must contain a match of, if given.
    public var message: String?
    /// Only on this transport of the reference clients (`--transport`); nil: on every one.
    public var transport: ClientTransport?
    /// Only when a device is driven through this adapter: `reference`, an `--adapter` name, or
    /// the name an external adapter gives itself in its hello (`easemob-web`); nil: whatever
    /// drives the devices.
    public var adapter: String?

    /// Creates an expected failure; at least one of `step` and `message` must be given.
    public init(reason: String, step: Int? = nil, message: String? = nil, transport: ClientTransport? = nil, adapter: String? = nil) {
        self.reason = reason
        self.step = step
        self.message = message
        self.transport = transport
        self.adapter = adapter
    }

    /// Whether it holds for a run on `transport` whose devices are driven by `adapters`.
    public func applies(transport: ClientTransport, adapters: Set<String>) -> Bool {
        (self.transport.map { $0 == transport } ?? true) && (adapter.map { adapters.contains($0) } ?? true)
    }

    /// Whether `divergence` is the failure expected: at the named step, with a matching
    /// message, and neither in set-up nor of the harness's infrastructure.
    public func matches(_ divergence: Divergence) -> Bool {
        guard divergence.stepIndex >= 0, !divergence.failure.isInfrastructure else { return false }
        if let step, step != divergence.stepIndex { return false }
        if let message, !RegexMatch.matches(message, divergence.failure.message) { return false }
        return true
    }

    /// `at steps[4], message matching /206/, only on msync`.
    public var summary: String {
        var parts: [String] = []
        if let step { parts.append("at steps[\(step)]") }
        if let message { parts.append("message matching /\(message)/") }
        if let transport { parts.append("only on \(transport.rawValue)") }
        if let adapter { parts.append("only through \(adapter)") }
        return parts.joined(separator: ", ")
    }
}
