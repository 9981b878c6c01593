import IMockCommon

/// Builds the protobuf binary encoding of a message, field by field.
///
/// A message encoder writes its fields in field-number order, each with the protobuf type it
/// has in the schema:
///
/// ```swift
/// writer.write(id, as: ProtobufUInt64.self, field: 1)            // nil: not written (proto2 optional)
/// writer.writeUnlessDefault(seq, as: ProtobufInt64.self, field: 14) // 0: not written (proto3)
/// writer.writeRepeated(contents, as: Content.self, field: 4)
/// writer.writeMap(maxSeqs, key: ProtobufString.self, value: ProtobufInt64.self, field: 1)
/// ```
public struct ProtobufWriter: Sendable {
    /// The encoding written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty writer.
    public init() {}

    /// An empty writer with room for `capacity` bytes.
    public init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    // MARK: Fields

    /// Writes field `field` with `value` encoded as `type`; writes nothing when `value` is nil
    /// (a proto2 `optional` or a message field that is not set).
    public mutating func write<T: ProtobufFieldType>(_ value: T.Value?, as type: T.Type, field: Int) {
        guard let value else { return }
        writeTag(field: field, wireType: T.wireType)
        T.write(value, to: &self)
    }

    /// Writes field `field` unless `value` is its type's default (0, false, empty): the
    /// implicit presence of proto3 singular fields.
    public mutating func writeUnlessDefault<T: ProtobufFieldType>(_ value: T.Value, as type: T.Type, field: Int) {
        guard !T.isDefault(value) else { return }
        write(value, as: type, field: field)
    }

    /// Writes each of `values` as its own field `field` (unpacked; proto2's default for scalars
    /// and the only form for strings, bytes and messages).
    public mutating func writeRepeated<T: ProtobufFieldType>(_ values: [T.Value], as type: T.Type, field: Int) {
        for value in values { write(value, as: type, field: field) }
    }

    /// Writes `values` as one packed field `field` (proto3's default for repeated scalars);
    /// nothing when `values` is empty.
    /// - Precondition: `type` is a varint, fixed32 or fixed64 type.
    public mutating func writePacked<T: ProtobufFieldType>(_ values: [T.Value], as type: T.Type, field: Int) {
        precondition(T.wireType.isPackable, "ProtobufWriter: \(T.wireType) values cannot be packed")
        guard !values.isEmpty else { return }
        writeTag(field: field, wireType: .lengthDelimited)
        writeLengthDelimited { writer in
            for value in values { T.write(value, to: &writer) }
        }
    }

    /// Writes `map` as repeated entries of field `field`, each a nested message with the key in
    /// field 1 and the value in field 2, both always written (as the Go, C++ and Python runtimes
    /// do). Entries are sorted by key so that the same map always gives the same bytes.
    public mutating func writeMap<K: ProtobufFieldType, V: ProtobufFieldType>(
        _ map: [K.Value: V.Value], key: K.Type, value: V.Type, field: Int
    ) where K.Value: Comparable {
        for (entryKey, entryValue) in map.sorted(by: { $0.key < $1.key }) {
            writeTag(field: field, wireType: .lengthDelimited)
            writeLengthDelimited { entry in
                entry.write(entryKey, as: key, field: 1)
                entry.write(entryValue, as: value, field: 2)
            }
        }
    }

    // MARK: Raw values (for ProtobufFieldType conformances)

    /// Writes the tag of field `field` with `wireType`.
    /// - Precondition: `field` is 1 … ``ProtobufFieldTag/maximumFieldNumber``.
    public mutating func writeTag(field: Int, wireType: ProtobufWireType) {
        precondition(
            (1...ProtobufFieldTag.maximumFieldNumber).contains(field), "ProtobufWriter: invalid field number \(field)")
        writeVarint(ProtobufFieldTag(number: field, wireType: wireType).encoded)
    }

    /// Appends `encoded` as it is: fields encoded earlier and kept (a JID's constant parts,
    /// say), so that writing them again is one copy.
    public mutating func writeEncoded(_ encoded: [UInt8]) {
        bytes.append(contentsOf: encoded)
    }

    /// Writes `value` as a varint (1 to 10 bytes, 7 bits each, low bits first).
    public mutating func writeVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: rest))
    }

    /// Writes `value` as 4 little-endian bytes.
    public mutating func writeFixed32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// Writes `value` as 8 little-endian bytes.
    public mutating func writeFixed64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// Writes the length of `value` as a varint, then `value` (copied from memory when it is
    /// contiguous: appended as a collection it goes element by element).
    public mutating func writeLengthDelimited(_ value: some Collection<UInt8>) {
        writeVarint(UInt64(value.count))
        if value.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            bytes.append(contentsOf: value)
        }
    }

    /// Writes the UTF-8 length of `string` as a varint, then its UTF-8 bytes. `withUTF8`
    /// reaches the bytes of small strings too, which the UTF-8 view's contiguous storage does not.
    public mutating func writeLengthDelimited(_ string: String) {
        var string = string
        string.withUTF8 { writeLengthDelimited($0) }
    }

    /// Writes what `body` writes, preceded by its length as a varint: a nested message, a
    /// packed run or a map entry written in place, without an array of its own to copy in.
    public mutating func writeLengthDelimited(_ body: (inout ProtobufWriter) -> Void) {
        let start = bytes.count
        bytes.append(0)  // the length, if under 128 (one byte); else widened below
        body(&self)
        let length = bytes.count - start - 1
        guard length >= 0x80 else {
            bytes[start] = UInt8(truncatingIfNeeded: length)
            return
        }
        // The varint written after the body: its first byte takes the placeholder's place,
        // the others are moved in after it, which leaves a copy of the first at the end.
        let end = bytes.count
        writeVarint(UInt64(length))
        bytes[start] = bytes[end]
        bytes.moveTail(from: end + 1, to: start + 1)
        bytes.removeLast()
    }
}
