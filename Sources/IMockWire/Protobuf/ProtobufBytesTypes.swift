import IMockCommon

/// `string`: a length-delimited UTF-8 text; invalid UTF-8 is refused on read.
public enum ProtobufString: ProtobufFieldType {
    /// Length-delimited.
    public static let wireType = ProtobufWireType.lengthDelimited
    /// The empty string.
    public static let defaultValue = ""

    /// Writes the length and the UTF-8 bytes.
    public static func write(_ value: String, to writer: inout ProtobufWriter) {
        writer.writeLengthDelimited(value)
    }

    /// Reads the length and the bytes, which must be valid UTF-8. The bytes are read where
    /// they lie (no slice of the input), and ASCII — ids, app keys, JIDs — is scanned once
    /// before the string is made from contiguous memory.
    public static func read(from reader: inout ProtobufReader) throws(ProtobufError) -> String {
        let (text, offset) = try reader.readLengthDelimitedValue { bytes, offset in (string(bytes), offset) }
        guard let text else {
            throw .invalidUTF8(ProtobufErrorLocation(offset: offset, path: reader.fieldPath))
        }
        return text
    }

    /// Whether `bytes` are valid UTF-8 (what ``read(from:)`` checks), without making a string.
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte >= 0x80 { return String(validUTF8: bytes) != nil }
        return true
    }

    /// `bytes` as a string when they are valid UTF-8.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        for byte in bytes where byte >= 0x80 { return String(validUTF8: bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// `bytes`: length-delimited raw bytes.
public enum ProtobufBytes: ProtobufFieldType {
    /// Length-delimited.
    public static let wireType = ProtobufWireType.lengthDelimited
    /// No bytes.
    public static let defaultValue: [UInt8] = []

    /// Writes the length and the bytes.
    public static func write(_ value: [UInt8], to writer: inout ProtobufWriter) {
        writer.writeLengthDelimited(value)
    }

    /// Reads the length and the bytes.
    public static func read(from reader: inout ProtobufReader) throws(ProtobufError) -> [UInt8] {
        Array(try reader.readLengthDelimitedValue())
    }
}
