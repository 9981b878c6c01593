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

    /// Reads the length and the bytes, which must be valid UTF-8.
    public static func read(from reader: inout ProtobufReader) throws(ProtobufError) -> String {
        let bytes = try reader.readLengthDelimitedValue()
        guard let text = String(validUTF8: bytes) else {
            throw .invalidUTF8(ProtobufErrorLocation(offset: bytes.startIndex, path: reader.fieldPath))
        }
        return text
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
