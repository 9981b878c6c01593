/// `string`: a length-delimited UTF-8 text; invalid UTF-8 is refused on read.
public enum ProtobufString: ProtobufFieldType {
    public static let wireType = ProtobufWireType.lengthDelimited
    public static let defaultValue = ""
    public static func write(_ value: String, to writer: inout ProtobufWriter) {
        writer.writeLengthDelimited(value.utf8)
    }
    public static func read(from reader: inout ProtobufReader) throws(ProtobufError) -> String {
        let bytes = try reader.readLengthDelimitedValue()
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .invalidUTF8(ProtobufErrorLocation(offset: bytes.startIndex, path: reader.fieldPath))
        }
        return text
    }
}

/// `bytes`: length-delimited raw bytes.
public enum ProtobufBytes: ProtobufFieldType {
    public static let wireType = ProtobufWireType.lengthDelimited
    public static let defaultValue: [UInt8] = []
    public static func write(_ value: [UInt8], to writer: inout ProtobufWriter) {
        writer.writeLengthDelimited(value)
    }
    public static func read(from reader: inout ProtobufReader) throws(ProtobufError) -> [UInt8] {
        Array(try reader.readLengthDelimitedValue())
    }
}
