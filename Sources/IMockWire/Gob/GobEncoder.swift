import Synchronization

/// Writes values as a gob stream (Go `encoding/gob`): the first value of each type is
/// preceded by that type's definition, as a Go `gob.Encoder` does.
///
/// The OpenIM gateway and its SDKs use a fresh encoder for every WebSocket message, so each
/// message carries the type definition (id 64) and then the value:
/// ``GobEncoder/encodeMessage(_:)``.
public struct GobEncoder: Sendable {
    private var typeIDs: [ObjectIdentifier: Int] = [:]
    private var nextTypeID = GobTypeID.firstUser

    /// An encoder with no type defined yet.
    public init() {}

    /// The bytes that send `value` on this stream: its type definition if this is the first
    /// value of its type, then the value message.
    public mutating func encode<T: GobCodable>(_ value: T) -> [UInt8] {
        var out = GobWriter()
        let typeID: Int
        if let known = typeIDs[ObjectIdentifier(T.self)] {
            typeID = known
        } else {
            typeID = nextTypeID
            nextTypeID += 1
            typeIDs[ObjectIdentifier(T.self)] = typeID
            out.writeMessage(Self.cachedTypeDefinition(T.self, id: typeID))
        }
        out.writeMessage(Self.valueBody(value, id: typeID))
        return out.bytes
    }

    /// What a fresh encoder writes for `value`: the type definition with id 64, then the value.
    public static func encodeMessage<T: GobCodable>(_ value: T) -> [UInt8] {
        var encoder = GobEncoder()
        return encoder.encode(value)
    }

    /// The definition of `T` as type `id`, built once per process for the id of a fresh
    /// encoder's first type (every OpenIM frame carries it: building it each time was about
    /// 5,500 instructions a frame, callgrind of `bench login-storm --dialect openim`).
    private static func cachedTypeDefinition<T: GobCodable>(_ type: T.Type, id: Int) -> GobWriter {
        guard id == GobTypeID.firstUser else { return typeDefinition(T.gobStruct, id: id) }
        let key = ObjectIdentifier(type)
        if let known = firstTypeDefinitions.withLock({ $0[key] }) { return known }
        let made = typeDefinition(T.gobStruct, id: id)
        firstTypeDefinitions.withLock { $0[key] = made }
        return made
    }

    /// Type definitions as the first type of a stream, by Swift type (a handful: the gob
    /// structs are declared in code).
    private static let firstTypeDefinitions = Mutex<[ObjectIdentifier: GobWriter]>([:])

    /// The body of a type-definition message: `-id`, then a `wireType` whose `StructT` is
    /// `structType{CommonType{Name, Id}, Field []fieldType{Name, Id}}`.
    private static func typeDefinition<T>(_ structure: GobStruct<T>, id: Int) -> GobWriter {
        var out = GobWriter()
        out.writeInt(Int64(-id))
        var wireField = -1
        out.writeFieldDelta(to: 2, from: &wireField)  // wireType.StructT
        var structField = -1
        out.writeFieldDelta(to: 0, from: &structField)  // structType.CommonType
        writeNameAndID(structure.name, id, into: &out)
        if !structure.fields.isEmpty {
            out.writeFieldDelta(to: 1, from: &structField)  // structType.Field
            out.writeUint(UInt64(structure.fields.count))
            for field in structure.fields { writeNameAndID(field.name, field.kind.typeID, into: &out) }
        }
        out.writeStructEnd()  // structType
        out.writeStructEnd()  // wireType
        return out
    }

    /// `CommonType` and `fieldType` are both `{Name string; Id int}`.
    private static func writeNameAndID(_ name: String, _ id: Int, into out: inout GobWriter) {
        var last = -1
        if !name.isEmpty {
            out.writeFieldDelta(to: 0, from: &last)
            out.writeBytes(name.utf8)
        }
        out.writeFieldDelta(to: 1, from: &last)
        out.writeInt(Int64(id))
        out.writeStructEnd()
    }

    /// The body of a value message: the type id, then the fields that are not zero.
    private static func valueBody<T: GobCodable>(_ value: T, id: Int) -> GobWriter {
        var out = GobWriter()
        out.writeInt(Int64(id))
        var last = -1
        for (number, field) in T.gobStruct.fields.enumerated() {
            let fieldValue = field.read(value)
            guard !fieldValue.isZero else { continue }
            out.writeFieldDelta(to: number, from: &last)
            out.write(fieldValue)
        }
        out.writeStructEnd()
        return out
    }
}
