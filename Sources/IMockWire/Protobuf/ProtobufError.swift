/// Why bytes are not a valid encoding of the message being decoded, and where.
public enum ProtobufError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input ended inside a tag, a value or a length-delimited field.
    case truncated(ProtobufErrorLocation)
    /// A varint longer than 10 bytes, or whose 10th byte is over 1: it does not fit 64 bits.
    case malformedVarint(ProtobufErrorLocation)
    /// A length prefix larger than the bytes left in the enclosing message.
    case lengthOutOfBounds(length: UInt64, remaining: Int, ProtobufErrorLocation)
    /// A tag whose field number is 0 or over ``ProtobufFieldTag/maximumFieldNumber``.
    case invalidFieldNumber(UInt64, ProtobufErrorLocation)
    /// A tag with wire type 6 or 7, which protobuf does not define.
    case invalidWireType(UInt8, ProtobufErrorLocation)
    /// A known field whose tag carries another wire type than its declared type uses.
    case wrongWireType(expected: ProtobufWireType, found: ProtobufWireType, ProtobufErrorLocation)
    /// An end-group tag outside a group, or one that closes another field's group.
    case unmatchedGroup(ProtobufErrorLocation)
    /// Messages or groups nested deeper than ``ProtobufLimits/maximumDepth``.
    case tooDeep(limit: Int, ProtobufErrorLocation)
    /// An input of `size` bytes, over ``ProtobufLimits/maximumMessageSize``.
    case tooLarge(size: Int, limit: Int)
    /// A `string` field whose bytes are not valid UTF-8.
    case invalidUTF8(ProtobufErrorLocation)

    /// Where the error was found; nil for ``tooLarge(size:limit:)``, which concerns the whole input.
    public var location: ProtobufErrorLocation? {
        switch self {
        case .truncated(let location), .malformedVarint(let location), .unmatchedGroup(let location),
            .invalidUTF8(let location):
            location
        case .lengthOutOfBounds(_, _, let location), .invalidFieldNumber(_, let location),
            .invalidWireType(_, let location), .wrongWireType(_, _, let location), .tooDeep(_, let location):
            location
        case .tooLarge:
            nil
        }
    }

    /// What went wrong and where, for logs and error replies.
    public var description: String {
        switch self {
        case .truncated(let location):
            "protobuf: input ends early \(location)"
        case .malformedVarint(let location):
            "protobuf: varint does not fit 64 bits \(location)"
        case .lengthOutOfBounds(let length, let remaining, let location):
            "protobuf: length \(length) exceeds the \(remaining) bytes left \(location)"
        case .invalidFieldNumber(let number, let location):
            "protobuf: invalid field number \(number) \(location)"
        case .invalidWireType(let wireType, let location):
            "protobuf: invalid wire type \(wireType) \(location)"
        case .wrongWireType(let expected, let found, let location):
            "protobuf: expected a \(expected) value, found \(found) \(location)"
        case .unmatchedGroup(let location):
            "protobuf: unmatched end-group tag \(location)"
        case .tooDeep(let limit, let location):
            "protobuf: nested deeper than \(limit) levels \(location)"
        case .tooLarge(let size, let limit):
            "protobuf: message of \(size) bytes exceeds the limit of \(limit)"
        case .invalidUTF8(let location):
            "protobuf: string is not valid UTF-8 \(location)"
        }
    }
}

/// A place in a protobuf input: the byte offset and the fields being read.
public struct ProtobufErrorLocation: Sendable, Hashable, CustomStringConvertible {
    /// The offset from the start of the input given to the outermost reader.
    public var offset: Int
    /// The field numbers from the outermost message down to the field being read, e.g. `[9, 8]`
    /// for field 8 of the message in field 9; empty while reading a top-level tag.
    public var path: [Int]

    /// A location at byte `offset` inside the fields `path`.
    public init(offset: Int, path: [Int]) {
        self.offset = offset
        self.path = path
    }

    /// `at byte 12 in field 9.8`.
    public var description: String {
        let place = path.isEmpty ? "" : " in field " + path.map(String.init).joined(separator: ".")
        return "at byte \(offset)\(place)"
    }
}

extension ProtobufError {
    /// The error of a nested reader as its parent reports it: `prefix` (the parent's field path)
    /// in front of the location's path. Nested readers start with an empty path so that
    /// reading a nested message allocates no path array; the path is built only for an error.
    func nested(under prefix: [Int]) -> ProtobufError {
        func moved(_ location: ProtobufErrorLocation) -> ProtobufErrorLocation {
            ProtobufErrorLocation(offset: location.offset, path: prefix + location.path)
        }
        switch self {
        case .truncated(let location): return .truncated(moved(location))
        case .malformedVarint(let location): return .malformedVarint(moved(location))
        case .lengthOutOfBounds(let length, let remaining, let location):
            return .lengthOutOfBounds(length: length, remaining: remaining, moved(location))
        case .invalidFieldNumber(let number, let location): return .invalidFieldNumber(number, moved(location))
        case .invalidWireType(let wireType, let location): return .invalidWireType(wireType, moved(location))
        case .wrongWireType(let expected, let found, let location):
            return .wrongWireType(expected: expected, found: found, moved(location))
        case .unmatchedGroup(let location): return .unmatchedGroup(moved(location))
        case .tooDeep(let limit, let location): return .tooDeep(limit: limit, moved(location))
        case .tooLarge: return self
        case .invalidUTF8(let location): return .invalidUTF8(moved(location))
        }
    }
}
