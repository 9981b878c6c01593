/// A type a peer defined on the stream: the decoded `wireType` of Go's type.go.
enum GobWireType: Equatable {
    /// A struct: its name and its fields (name and type id) in the peer's order.
    case structure(name: String, fields: [Field])
    /// `[]Elem`.
    case slice(element: Int)
    /// `[length]Elem`.
    case array(element: Int, length: Int)
    /// `map[Key]Elem`.
    case map(key: Int, element: Int)
    /// A type with its own encoding (GobEncoder, BinaryMarshaler, TextMarshaler): a byte string.
    case opaque

    struct Field: Equatable {
        var name: String
        var typeID: Int
    }

    /// Field numbers of Go's `wireType` struct.
    private enum Kind: Int {
        case array = 0, slice, structure, map, gobEncoder, binaryMarshaler, textMarshaler
        static let count = 7
    }

    /// Reads a `wireType` struct value.
    static func read(from reader: inout GobReader, limits: GobLimits) throws(GobError) -> GobWireType {
        var found: GobWireType?
        try reader.readStruct(fieldCount: Kind.count) { (reader, number) throws(GobError) in
            guard found == nil, let kind = Kind(rawValue: number) else {
                throw .unsupportedType("a type definition with more than one kind")
            }
            found = try readKind(kind, from: &reader, limits: limits)
        }
        guard let found else { throw .unsupportedType("a type definition with no kind") }
        return found
    }

    private static func readKind(_ kind: Kind, from reader: inout GobReader, limits: GobLimits) throws(GobError) -> GobWireType {
        // Every kind is a struct whose field 0 is the embedded CommonType{Name, Id}.
        var name = ""
        var ids = [0, 0]  // the fields after CommonType that are type ids or lengths
        var fields: [Field] = []
        let fieldCount = switch kind {
        case .array, .map: 3
        case .slice, .structure: 2
        case .gobEncoder, .binaryMarshaler, .textMarshaler: 1
        }
        try reader.readStruct(fieldCount: fieldCount) { (reader, number) throws(GobError) in
            switch (kind, number) {
            case (_, 0): name = try readCommonTypeName(from: &reader, limits: limits)
            case (.structure, 1): fields = try readFields(from: &reader, limits: limits)
            default: ids[number - 1] = try readTypeID(from: &reader)
            }
        }
        switch kind {
        case .structure: return .structure(name: name, fields: fields)
        case .slice: return .slice(element: ids[0])
        case .array: return .array(element: ids[0], length: ids[1])
        case .map: return .map(key: ids[0], element: ids[1])
        case .gobEncoder, .binaryMarshaler, .textMarshaler: return .opaque
        }
    }

    private static func readCommonTypeName(from reader: inout GobReader, limits: GobLimits) throws(GobError) -> String {
        var name = ""
        try reader.readStruct(fieldCount: 2) { (reader, number) throws(GobError) in
            if number == 0 {
                name = try readName(from: &reader, limits: limits)
            } else {
                _ = try readTypeID(from: &reader)  // the id again; the message's id is the one used
            }
        }
        return name
    }

    /// Reads `[]fieldType`: a count, then `fieldType{Name string; Id typeId}` structs.
    private static func readFields(from reader: inout GobReader, limits: GobLimits) throws(GobError) -> [Field] {
        let count = try reader.readCount()
        guard count <= limits.maximumFieldCount else {
            throw .limitExceeded("\(count) fields exceed \(limits.maximumFieldCount)")
        }
        var fields: [Field] = []
        fields.reserveCapacity(count)
        for _ in 0..<count {
            var field = Field(name: "", typeID: 0)
            try reader.readStruct(fieldCount: 2) { (reader, number) throws(GobError) in
                if number == 0 {
                    field.name = try readName(from: &reader, limits: limits)
                } else {
                    field.typeID = try readTypeID(from: &reader)
                }
            }
            guard !field.name.isEmpty else { throw .emptyFieldName }
            fields.append(field)
        }
        return fields
    }

    private static func readName(from reader: inout GobReader, limits: GobLimits) throws(GobError) -> String {
        let name = try reader.readString(field: "a type or field name")
        guard name.utf8.count <= limits.maximumNameLength else {
            throw .limitExceeded("a name of \(name.utf8.count) bytes exceeds \(limits.maximumNameLength)")
        }
        return name
    }

    /// A type id or array length: an int within Go's 32-bit `typeId` range.
    private static func readTypeID(from reader: inout GobReader) throws(GobError) -> Int {
        let value = try reader.readInt("a type id")
        guard let id = Int32(exactly: value) else { throw .invalidTypeID(value) }
        return Int(id)
    }
}
