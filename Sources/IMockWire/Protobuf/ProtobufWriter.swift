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

    /// Writes the length of `value` as a varint, then `value`.
    public mutating func writeLengthDelimited(_ value: some Collection<UInt8>) {
        writeVarint(UInt64(value.count))
        bytes.append(contentsOf: value)
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
        var width = 1
        while length >> (7 * width) != 0 { width += 1 }
        bytes.insert(contentsOf: repeatElement(0, count: width - 1), at: start + 1)
        var rest = UInt64(length)
        for offset in 0..<width {
            bytes[start + offset] = UInt8(truncatingIfNeeded: rest) | (offset < width - 1 ? 0x80 : 0)
            rest >>= 7
        }
    }
}
