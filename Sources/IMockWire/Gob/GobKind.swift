/// The Go field types a ``GobStruct`` can declare.
public enum GobKind: Sendable, Equatable {
    /// Go `bool`.
    case bool
    /// Go `int` (any signed integer), sign in the low bit on the wire.
    case int
    /// Go `uint` (any unsigned integer).
    case uint
    /// Go `string`: a length, then UTF-8 bytes.
    case string
    /// Go `[]byte`: a length, then the bytes.
    case bytes

    /// The predefined gob type id of this kind, as a type definition names it.
    public var typeID: Int {
        switch self {
        case .bool: GobTypeID.bool
        case .int: GobTypeID.int
        case .uint: GobTypeID.uint
        case .string: GobTypeID.string
        case .bytes: GobTypeID.bytes
        }
    }
}

/// One field value as it travels: the payload of one ``GobKind``.
enum GobValue: Sendable, Equatable {
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case string(String)
    case bytes([UInt8])

    /// Whether this is the zero value, which gob does not send.
    var isZero: Bool {
        switch self {
        case .bool(let value): !value
        case .int(let value): value == 0
        case .uint(let value): value == 0
        case .string(let value): value.isEmpty
        case .bytes(let value): value.isEmpty
        }
    }
}
