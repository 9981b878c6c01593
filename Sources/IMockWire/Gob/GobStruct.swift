/// The description of a Go struct for gob: its name and its exported fields in declaration
/// order, each bound to a stored property of the Swift type `Root`.
///
/// Field order matters: gob numbers fields by their position in the Go declaration. A struct
/// is declared once, as data; ``GobEncoder`` and ``GobDecoder`` do the rest:
///
/// ```swift
/// static let gobStruct = GobStruct<Point>(name: "Point", fields: [.int("X", \.x), .int("Y", \.y)])
/// ```
public struct GobStruct<Root>: Sendable {
    /// The Go type name, sent in the type definition.
    public let name: String
    /// The fields, in Go declaration order.
    public let fields: [GobField<Root>]

    /// A struct named `name` with `fields` in Go declaration order.
    public init(name: String, fields: [GobField<Root>]) {
        self.name = name
        self.fields = fields
    }
}

/// One field of a ``GobStruct``: its Go name, its kind and the Swift property holding it.
public struct GobField<Root>: Sendable {
    /// The Go field name (exported, so capitalised), matched by name when decoding.
    public let name: String
    /// The Go type of the field.
    public let kind: GobKind
    let read: @Sendable (Root) -> GobValue
    let write: @Sendable (inout Root, GobValue) -> Void

    private init(
        _ name: String, _ kind: GobKind, read: @escaping @Sendable (Root) -> GobValue,
        write: @escaping @Sendable (inout Root, GobValue) -> Void
    ) {
        self.name = name
        self.kind = kind
        self.read = read
        self.write = write
    }

    /// A Go `bool` field.
    public static func bool(_ name: String, _ path: any WritableKeyPath<Root, Bool> & Sendable) -> GobField {
        GobField(name, .bool, read: { .bool($0[keyPath: path]) }) { root, value in
            if case .bool(let bool) = value { root[keyPath: path] = bool }
        }
    }

    /// A Go `int` field (the decoder refuses a value that does not fit `Int`).
    public static func int(_ name: String, _ path: any WritableKeyPath<Root, Int> & Sendable) -> GobField {
        GobField(name, .int, read: { .int(Int64($0[keyPath: path])) }) { root, value in
            if case .int(let int) = value { root[keyPath: path] = Int(truncatingIfNeeded: int) }
        }
    }

    /// A Go `uint` field.
    public static func uint(_ name: String, _ path: any WritableKeyPath<Root, UInt64> & Sendable) -> GobField {
        GobField(name, .uint, read: { .uint($0[keyPath: path]) }) { root, value in
            if case .uint(let uint) = value { root[keyPath: path] = uint }
        }
    }

    /// A Go `string` field.
    public static func string(_ name: String, _ path: any WritableKeyPath<Root, String> & Sendable) -> GobField {
        GobField(name, .string, read: { .string($0[keyPath: path]) }) { root, value in
            if case .string(let string) = value { root[keyPath: path] = string }
        }
    }

    /// A Go `[]byte` field.
    public static func bytes(_ name: String, _ path: any WritableKeyPath<Root, [UInt8]> & Sendable) -> GobField {
        GobField(name, .bytes, read: { .bytes($0[keyPath: path]) }) { root, value in
            if case .bytes(let bytes) = value { root[keyPath: path] = bytes }
        }
    }
}

/// A Swift value that travels as a gob struct.
public protocol GobCodable: Sendable {
    /// The Go struct this type stands for.
    static var gobStruct: GobStruct<Self> { get }
    /// The zero value: every field empty, as a decoded struct starts.
    init()
}
