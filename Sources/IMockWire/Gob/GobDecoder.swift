/// Reads values from a gob stream (Go `encoding/gob`) into ``GobCodable`` structs.
///
/// The stream is a sequence of messages, each a byte count and then either a type definition
/// (a negative type id and a `wireType`) or a value (a positive type id and the value). The
/// decoder keeps the peer's type definitions for the whole stream and maps struct fields by
/// name, like Go: the peer may number its fields in any order, fields we do not know are
/// skipped (whatever their type, as long as it is defined), and a known field of another wire
/// type is refused.
///
/// Stricter than Go where Go would accept garbage silently: strings must be valid UTF-8, and
/// bytes left in a value message after the struct are an error (Go drops them). Interface
/// values in unknown fields are refused rather than skipped. After an error the decoder is
/// failed: ``decode(_:)`` throws the same error again.
public struct GobDecoder: Sendable {
    /// What this decoder accepts.
    public let limits: GobLimits

    private let input: [UInt8]
    private var position = 0
    private var types: [Int: GobWireType] = [:]
    /// A type defined byte for byte as the requested struct's own definition (how Go and the
    /// SDKs send every frame): kept apart from ``types`` with the Swift type it stands for,
    /// so that its fields need no matching by name.
    private var ownType: (id: Int, wire: GobWireType, swiftType: ObjectIdentifier)?
    private var failure: GobError?

    /// A decoder of the stream `bytes`.
    public init(_ bytes: some Collection<UInt8>, limits: GobLimits = .standard) {
        self.input = Array(bytes)
        self.limits = limits
    }

    /// Whether every message of the input has been read.
    public var isAtEnd: Bool { position == input.count }

    /// Decodes a whole input that holds one value (with any type definitions before it), as a
    /// fresh Go encoder writes it: one OpenIM gateway frame once decompressed.
    /// - Throws: any decoding error, or ``GobError/extraData(_:)`` if bytes follow the value.
    public static func decodeMessage<T: GobCodable>(
        _ type: T.Type, from bytes: some Collection<UInt8>, limits: GobLimits = .standard
    ) throws(GobError) -> T {
        let input = Array(bytes)
        if let value = decodeOwnFrame(type, from: input, limits: limits) { return value }
        var decoder = GobDecoder(input, limits: limits)
        let value = try decoder.decode(type)
        guard decoder.isAtEnd else { throw .extraData(decoder.input.count - decoder.position) }
        return value
    }

    /// The value of a frame as Go and the SDKs write it — `T`'s own type definition (id 64), byte
    /// for byte, then one value of it ending the input — read without a decoder's type table;
    /// nil for any other input and at any error, which the general path then reads or reports.
    /// It takes only what the general path takes, with the same value: the definition is
    /// checked by the same comparison and limits, the value by the same field code. Two frames
    /// a message on each side of the OpenIM gateway.
    private static func decodeOwnFrame<T: GobCodable>(_ type: T.Type, from input: [UInt8], limits: GobLimits) -> T? {
        let structure = T.gobStruct
        guard limits.maximumTypeDefinitions > 0, structure.definitionFits(limits) else { return nil }
        var definition = GobReader(input, from: 0, to: input.count)
        guard let definitionLength = try? definition.readUint(), definitionLength <= UInt64(limits.maximumMessageLength),
            definitionLength <= UInt64(definition.remaining)
        else { return nil }
        let valueStart = definition.index + Int(definitionLength)
        guard GobReader(input, from: definition.index, to: valueStart).restEquals(structure.firstTypeDefinition) else {
            return nil
        }
        var reader = GobReader(input, from: valueStart, to: input.count)
        guard let valueLength = try? reader.readUint(), valueLength <= UInt64(limits.maximumMessageLength),
            valueLength == UInt64(reader.remaining), (try? reader.readInt()) == Int64(GobTypeID.firstUser)
        else { return nil }
        reader.fieldNames = structure.fieldNames
        var value = T()
        do {
            try reader.readStruct(fieldCount: structure.fields.count) { (reader, number) throws(GobError) in
                reader.fieldIndex = number
                try value.decodeGobField(number, from: &reader)
            }
        } catch {
            return nil
        }
        return reader.remaining == 0 ? value : nil
    }

    /// Reads type definitions until a value arrives and decodes it as `T`.
    /// - Throws: ``GobError/endOfStream`` if the input has no further message.
    public mutating func decode<T: GobCodable>(_ type: T.Type) throws(GobError) -> T {
        if let failure { throw failure }
        do {
            return try nextValue(type)
        } catch {
            failure = error
            throw error
        }
    }

    // MARK: - Messages

    private mutating func nextValue<T: GobCodable>(_ type: T.Type) throws(GobError) -> T {
        let structure = T.gobStruct
        var sawTypeDefinition = false
        while true {
            guard !isAtEnd else {
                throw sawTypeDefinition ? .truncated("a stream: a value must follow its type definitions") : .endOfStream
            }
            var reader = try nextMessage()
            let isOwnDefinition = reader.restEquals(structure.firstTypeDefinition) && structure.definitionFits(limits)
            let id = try reader.readInt("a type id")
            if id >= 0 {
                let value = try decodeStruct(type, typeID: id, from: &reader)
                guard reader.remaining == 0 else { throw .extraData(reader.remaining) }
                return value
            }
            try receiveType(id: id, from: &reader, own: isOwnDefinition ? (structure.wireType, ObjectIdentifier(type)) : nil)
            guard reader.remaining == 0 else { throw .extraData(reader.remaining) }
            sawTypeDefinition = true
        }
    }

    /// The next length-prefixed message; the position moves past it.
    private mutating func nextMessage() throws(GobError) -> GobReader {
        var prefix = GobReader(input, from: position, to: input.count)
        let length = try prefix.readUint("a message length")
        guard length <= UInt64(limits.maximumMessageLength) else {
            throw .messageTooLong(length: length, limit: limits.maximumMessageLength)
        }
        guard length <= UInt64(prefix.remaining) else { throw .truncated("a message") }
        let start = prefix.index
        position = start + Int(length)
        return GobReader(input, from: start, to: position)
    }

    /// Records the definition of type `-negativeID`; `own` is the requested struct's, if the
    /// message is byte for byte its definition (read as it would be, but not read again).
    private mutating func receiveType(
        id negativeID: Int64, from reader: inout GobReader, own: (wire: GobWireType, swiftType: ObjectIdentifier)?
    ) throws(GobError) {
        guard negativeID >= -Int64(Int32.max), -negativeID >= Int64(GobTypeID.firstUser) else {
            throw .invalidTypeID(negativeID == Int64.min ? negativeID : -negativeID)
        }
        let id = Int(-negativeID)
        guard wireType(id) == nil else { throw .duplicateType(id) }
        let count = types.count + (ownType == nil ? 0 : 1)
        guard count < limits.maximumTypeDefinitions else {
            throw .limitExceeded("more than \(limits.maximumTypeDefinitions) type definitions")
        }
        if let own, ownType == nil {
            ownType = (id, own.wire, own.swiftType)
            reader.skipRest()
        } else {
            types[id] = try GobWireType.read(from: &reader, limits: limits)
        }
    }

    /// The peer's definition of type `id`.
    private func wireType(_ id: Int) -> GobWireType? {
        if let ownType, ownType.id == id { return ownType.wire }
        return types.isEmpty ? nil : types[id]
    }

    // MARK: - Values

    private func decodeStruct<T: GobCodable>(_ type: T.Type, typeID: Int64, from reader: inout GobReader) throws(GobError) -> T {
        let id = Int(clamping: typeID)
        guard let wire = wireType(id) else {
            throw (GobTypeID.bool...GobTypeID.interface).contains(id) ? .notAStruct(typeID: id) : .undefinedType(id)
        }
        guard case .structure(_, let wireFields) = wire else { throw .notAStruct(typeID: id) }
        let structure = T.gobStruct
        var value = T()
        reader.fieldNames = structure.fieldNames
        if let ownType, ownType.id == id, ownType.swiftType == ObjectIdentifier(type) {
            try reader.readStruct(fieldCount: wireFields.count) { (reader, number) throws(GobError) in
                reader.fieldIndex = number
                try value.decodeGobField(number, from: &reader)
            }
            return value
        }
        let targets = try localFields(of: wireFields, in: structure)
        try reader.readStruct(fieldCount: wireFields.count) { (reader, number) throws(GobError) in
            if let local = targets[number] {
                reader.fieldIndex = local
                try value.decodeGobField(local, from: &reader)
            } else {
                try skipValue(typeID: wireFields[number].typeID, from: &reader, depth: 1)
            }
        }
        return value
    }

    /// For each of the peer's field numbers: our field index, or nil to skip it.
    private func localFields<T>(of wireFields: [GobWireType.Field], in structure: GobStruct<T>) throws(GobError) -> [Int?] {
        let fields = structure.fields
        var targets: [Int?] = []
        targets.reserveCapacity(wireFields.count)
        for wireField in wireFields {
            let local = fields.firstIndex { $0.name == wireField.name }
            if let local, fields[local].kind.typeID != wireField.typeID {
                throw .wrongFieldType(field: wireField.name, expected: fields[local].kind.typeID, received: wireField.typeID)
            }
            targets.append(local)
        }
        if !fields.isEmpty, !wireFields.isEmpty, targets.allSatisfy({ $0 == nil }) {
            throw .noMatchingFields(structure.name)
        }
        return targets
    }

    /// Reads past one value of type `typeID` (a field we do not know), as Go's ignore ops do.
    private func skipValue(typeID: Int, from reader: inout GobReader, depth: Int) throws(GobError) {
        guard depth <= limits.maximumNestingDepth else {
            throw .limitExceeded("values nested deeper than \(limits.maximumNestingDepth)")
        }
        switch typeID {
        case GobTypeID.bool, GobTypeID.int, GobTypeID.uint, GobTypeID.float:
            _ = try reader.readUint()
            return
        case GobTypeID.bytes, GobTypeID.string:
            _ = try reader.readBytes()
            return
        case GobTypeID.complex:
            _ = try reader.readUint()
            _ = try reader.readUint()
            return
        case GobTypeID.interface:
            throw .unsupportedType("an interface value in a skipped field")
        default:
            break
        }
        guard let wire = wireType(typeID) else { throw .undefinedType(typeID) }
        switch wire {
        case .opaque:
            _ = try reader.readBytes()
        case .structure(_, let fields):
            try reader.readStruct(fieldCount: fields.count) { (reader, number) throws(GobError) in
                try skipValue(typeID: fields[number].typeID, from: &reader, depth: depth + 1)
            }
        case .slice(let element):
            try skipElements(try reader.readCount(), of: [element], from: &reader, depth: depth)
        case .array(let element, let length):
            let count = try reader.readCount()
            guard count == length else { throw .arrayLengthMismatch }
            try skipElements(count, of: [element], from: &reader, depth: depth)
        case .map(let key, let element):
            try skipElements(try reader.readCount(minimumSize: 2), of: [key, element], from: &reader, depth: depth)
        }
    }

    /// Skips `count` groups of values of types `group` (one element, or a key and a value).
    /// Each group must start before the message ends, so the loop is bounded by the input.
    private func skipElements(_ count: Int, of group: [Int], from reader: inout GobReader, depth: Int) throws(GobError) {
        for _ in 0..<count {
            guard reader.remaining > 0 else { throw .truncated("a slice, array or map") }
            for typeID in group { try skipValue(typeID: typeID, from: &reader, depth: depth + 1) }
        }
    }
}
