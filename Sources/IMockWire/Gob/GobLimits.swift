/// Bounds on what a ``GobDecoder`` accepts from a peer, so hostile input costs little. Start
/// from ``standard`` and change what needs changing.
///
/// Lengths and element counts are also checked against the bytes actually left in the
/// message before anything is allocated or skipped.
public struct GobLimits: Sendable, Equatable {
    /// The largest message (one length-prefixed item) accepted.
    public var maximumMessageLength: Int
    /// How many type definitions one stream may carry.
    public var maximumTypeDefinitions: Int
    /// How many fields one struct type definition may declare.
    public var maximumFieldCount: Int
    /// The longest type or field name accepted in a type definition.
    public var maximumNameLength: Int
    /// How deeply nested values of unknown fields (structs in slices in maps …) may be skipped.
    public var maximumNestingDepth: Int

    /// The defaults: 1 MiB messages (the OpenIM gateway reads at most 51 200 bytes), 64 type
    /// definitions, 256 fields, 1 024-byte names (Go's limit for interface names), depth 32.
    public static let standard = GobLimits(
        maximumMessageLength: 1 << 20, maximumTypeDefinitions: 64, maximumFieldCount: 256,
        maximumNameLength: 1024, maximumNestingDepth: 32)
}
