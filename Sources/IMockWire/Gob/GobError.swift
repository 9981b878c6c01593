/// Why bytes are not an acceptable gob stream (Go `encoding/gob`) for the requested struct.
///
/// Every malformed or hostile input ends in one of these; the decoder never traps.
public enum GobError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The stream is at its end: there is no further message (Go's `io.EOF`).
    case endOfStream
    /// The input ended inside a message, a number or a string (`what` says which).
    case truncated(String)
    /// An unsigned integer's prefix announces more than 8 bytes (a first byte 0x80…0xF7).
    case uintOutOfRange
    /// A message declares more bytes than ``GobLimits/maximumMessageLength``.
    case messageTooLong(length: UInt64, limit: Int)
    /// A type definition for an id that is reserved (below 64) or out of the 32-bit range.
    case invalidTypeID(Int64)
    /// A second definition of a type id on the same stream.
    case duplicateType(Int)
    /// A value or a field refers to a type id that was never defined.
    case undefinedType(Int)
    /// A value whose type is not a struct, where a struct was expected.
    case notAStruct(typeID: Int)
    /// A `wireType` with no kind, or with more than one, or a kind this decoder cannot skip
    /// (interface values).
    case unsupportedType(String)
    /// A struct field delta that goes past the struct's last field.
    case fieldNumberOutOfRange
    /// A field whose name we know arrives with another wire type (e.g. a string for an int).
    case wrongFieldType(field: String, expected: Int, received: Int)
    /// The peer's struct and ours share no field name (Go: "no fields matched").
    case noMatchingFields(String)
    /// A type definition whose field has an empty name.
    case emptyFieldName
    /// A string field that is not valid UTF-8.
    case invalidUTF8(field: String)
    /// An integer that does not fit the field it is meant for.
    case valueOutOfRange(field: String)
    /// A length or an element count larger than the bytes left in the message.
    case countTooLarge(UInt64)
    /// An array value whose count differs from its type's length.
    case arrayLengthMismatch
    /// Bytes left in a message after its type definition or value.
    case extraData(Int)
    /// One of the other ``GobLimits`` was exceeded (`what` says which).
    case limitExceeded(String)

    /// A one-line explanation, for logs and close reasons.
    public var description: String {
        switch self {
        case .endOfStream: "gob: end of stream"
        case .truncated(let what): "gob: input ends inside \(what)"
        case .uintOutOfRange: "gob: encoded unsigned integer longer than 8 bytes"
        case .messageTooLong(let length, let limit): "gob: message of \(length) bytes exceeds \(limit)"
        case .invalidTypeID(let id): "gob: invalid type id \(id) in a type definition"
        case .duplicateType(let id): "gob: duplicate definition of type \(id)"
        case .undefinedType(let id): "gob: undefined type id \(id)"
        case .notAStruct(let id): "gob: type \(id) is not a struct"
        case .unsupportedType(let what): "gob: unsupported type: \(what)"
        case .fieldNumberOutOfRange: "gob: field number out of bounds"
        case .wrongFieldType(let field, let expected, let received):
            "gob: field \(field) has wire type \(received), expected \(expected)"
        case .noMatchingFields(let name): "gob: no fields of \(name) matched"
        case .emptyFieldName: "gob: empty field name in a type definition"
        case .invalidUTF8(let field): "gob: \(field) is not valid UTF-8"
        case .valueOutOfRange(let field): "gob: value of \(field) out of range"
        case .countTooLarge(let count): "gob: count \(count) exceeds the bytes left"
        case .arrayLengthMismatch: "gob: array length differs from its type"
        case .extraData(let count): "gob: \(count) extra bytes in a message"
        case .limitExceeded(let what): "gob: \(what)"
        }
    }
}
