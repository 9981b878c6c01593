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
        var fields = GobFieldWriter(GobWriter())
        let typeID: Int
        if let known = typeIDs[ObjectIdentifier(T.self)] {
            typeID = known
        } else {
            typeID = nextTypeID
            nextTypeID += 1
            typeIDs[ObjectIdentifier(T.self)] = typeID
            fields.out.writeMessage(T.gobStruct.typeDefinition(id: typeID))
        }
        Self.writeValue(value, id: typeID, into: &fields)
        return fields.out.bytes
    }

    /// What a fresh encoder writes for `value`: the type definition with id 64, then the value.
    /// The definition is built once, with ``GobCodable/gobStruct``, and the value is written
    /// right after it into one buffer.
    public static func encodeMessage<T: GobCodable>(_ value: T) -> [UInt8] {
        let definition = T.gobStruct.firstTypeDefinition
        var fields = GobFieldWriter(GobWriter(capacity: definition.count + expectedValueLength))
        fields.out.writeMessage(definition)
        writeValue(value, id: GobTypeID.firstUser, into: &fields)
        return fields.out.bytes
    }

    /// ``encodeMessage(_:)`` appended to `bytes`, which it grows in place: a frame written
    /// straight into the buffer that frames it (a gzip member), not built apart and copied in.
    public static func encodeMessage<T: GobCodable>(_ value: T, appendingTo bytes: inout [UInt8]) {
        var fields = GobFieldWriter(GobWriter(takingOver: &bytes))
        fields.out.writeMessage(T.gobStruct.firstTypeDefinition)
        writeValue(value, id: GobTypeID.firstUser, into: &fields)
        bytes = fields.out.takeBytes()
    }

    /// Room for a value message beyond its definition: a gateway frame's `Resp`, a message
    /// or two in its data, needs no more; a longer one grows the buffer once or twice.
    private static let expectedValueLength = 256

    /// Appends the value message of `value`: the type id, then the fields that are not zero.
    private static func writeValue<T: GobCodable>(_ value: T, id: Int, into fields: inout GobFieldWriter) {
        let start = fields.out.bytes.count
        fields.out.writeInt(Int64(id))
        value.encodeGobFields(to: &fields)
        fields.endStruct()
        fields.out.closeMessage(startingAt: start)
    }
}
