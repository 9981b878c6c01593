/// The description of a Go struct for gob: its name and its exported fields in declaration
/// order, each bound to a stored property of the Swift type `Root`.
///
/// Field order matters: gob numbers fields by their position in the Go declaration. A struct
/// is declared once, as data; ``GobEncoder`` and ``GobDecoder`` do the rest:
///
/// ```swift
/// static let gobStruct = GobStruct<Point>(name: "Point", fields: [.int("X", \.x), .int("Y", \.y)])
/// ```
///
/// The declaration is built once (it is a `static let`), with its type definition as a
/// stream's first type. A type on a hot path may also write and read its fields itself
/// (``GobCodable/encodeGobFields(to:)``), by the same numbers.
public struct GobStruct<Root>: Sendable {
    /// The Go type name, sent in the type definition.
    public let name: String
    /// The fields, in Go declaration order.
    public let fields: [GobField<Root>]
    /// The Go field names, in declaration order.
    let fieldNames: [String]
    /// The body of this struct's type-definition message as a stream's first type (id 64),
    /// as every OpenIM frame carries it: built once, with the declaration.
    let firstTypeDefinition: [UInt8]
    /// What a decoder makes of ``firstTypeDefinition``.
    let wireType: GobWireType
    /// The longest name of the definition, struct or field, in bytes; -1 if a field name is
    /// empty (which a decoder refuses whatever its limits).
    private let longestName: Int

    /// A struct named `name` with `fields` in Go declaration order.
    public init(name: String, fields: [GobField<Root>]) {
        self.name = name
        self.fields = fields
        fieldNames = fields.map(\.name)
        firstTypeDefinition = Self.typeDefinition(name: name, fields: fields, id: GobTypeID.firstUser)
        wireType = .structure(name: name, fields: fields.map { GobWireType.Field(name: $0.name, typeID: $0.kind.typeID) })
        longestName = fieldNames.contains("") ? -1 : ([name] + fieldNames).map(\.utf8.count).max() ?? 0
    }

    /// Whether a decoder with `limits` reads ``firstTypeDefinition`` as ``wireType``: it would
    /// refuse too many fields, too long a name, an empty field name.
    func definitionFits(_ limits: GobLimits) -> Bool {
        longestName >= 0 && fields.count <= limits.maximumFieldCount && longestName <= limits.maximumNameLength
    }

    /// The general path of ``GobCodable/encodeGobFields(to:)``: each field through its key path.
    public func encodeFields(of value: Root, to writer: inout GobFieldWriter) {
        for (number, field) in fields.enumerated() { writer.value(number, field.read(value)) }
    }

    /// The general path of ``GobCodable/decodeGobField(_:from:)``: field `index` through its key path.
    public func decodeField(_ index: Int, of value: inout Root, from reader: inout GobReader) throws(GobError) {
        let field = fields[index]
        let read: GobValue =
            switch field.kind {
            case .bool: .bool(try reader.boolField())
            case .int: .int(Int64(try reader.intField()))
            case .uint: .uint(try reader.uintField())
            case .string: .string(try reader.stringField())
            case .bytes: .bytes(try reader.bytesField())
            }
        field.write(&value, read)
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
