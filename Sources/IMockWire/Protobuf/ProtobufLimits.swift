/// The bounds a ``ProtobufReader`` enforces on untrusted input.
public struct ProtobufLimits: Sendable, Hashable {
    /// The default deepest nesting of messages and groups: 100, as in the C++ and Python runtimes.
    public static let defaultMaximumDepth = 100
    /// The default largest input accepted: 1 MiB. The dialects' frames are far smaller (OpenIM's
    /// gateway reads at most 51 200 bytes); the bound keeps a flood of 2-byte empty repeated
    /// messages from growing into hundreds of megabytes of decoded values.
    public static let defaultMaximumMessageSize = 1 << 20

    /// The limits used unless a caller passes others.
    public static let standard = ProtobufLimits(
        maximumDepth: defaultMaximumDepth, maximumMessageSize: defaultMaximumMessageSize)

    /// How many messages (or groups) may be nested inside the outermost one.
    public var maximumDepth: Int
    /// The largest input, in bytes, a reader accepts.
    public var maximumMessageSize: Int

    /// Limits of `maximumDepth` nesting levels and `maximumMessageSize` bytes (negative values
    /// count as 0).
    public init(maximumDepth: Int, maximumMessageSize: Int) {
        self.maximumDepth = max(0, maximumDepth)
        self.maximumMessageSize = max(0, maximumMessageSize)
    }
}
