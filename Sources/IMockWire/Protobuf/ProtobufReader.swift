/// Reads the fields of one protobuf message from untrusted bytes, in wire order.
///
/// A message decoder loops over ``nextField()`` and, for each field it knows, reads the value
/// with ``read(_:)`` (or ``readRepeated(_:into:)``, ``readMapEntry(key:value:into:)``). A value
/// it does not read is skipped by the next call to ``nextField()``, whatever its wire type,
/// deprecated groups included, so unknown fields never stop decoding:
///
/// ```swift
/// while let field = try reader.nextField() {
///     switch field.number {
///     case 1: name = try reader.read(ProtobufString.self)
///     default: break  // skipped
///     }
/// }
/// ```
///
/// Nothing in the input can make the reader trap: varints are bounded to 10 bytes, every length
/// is checked against the bytes left before it is converted or added, nesting is bounded by
/// ``ProtobufLimits/maximumDepth`` and the whole input by ``ProtobufLimits/maximumMessageSize``.
/// Every error is a ``ProtobufError`` with the byte offset and the field path. After an error
/// the reader must not be used again.
public struct ProtobufReader: Sendable {
    /// The whole input; nested readers share it and read between their own bounds.
    private let bytes: [UInt8]
    /// The next byte to read (an index into `bytes`).
    private var index: Int
    /// One past the last byte of this message.
    private let end: Int
    /// The limits this reader and its nested readers enforce.
    public let limits: ProtobufLimits
    /// How many messages enclose this one: 0 for the outermost.
    public let depth: Int
    /// The field numbers of the enclosing fields, from the outermost message; empty in a nested
    /// reader, whose errors its parent prefixes with its own field path (``readNested(_:)``).
    public let path: [Int]
    /// The field whose tag was read last and whose value is not read or skipped yet.
    var currentField: ProtobufFieldTag?

    /// A reader of the message encoded in `bytes`.
    /// - Parameters:
    ///   - path: field numbers to put in front of error locations, when `bytes` is itself the
    ///     value of a field (e.g. `[9]` for `MSync.payload`).
    ///   - limits: the size and nesting bounds.
    /// - Throws: ``ProtobufError/tooLarge(size:limit:)`` when `bytes` is over the size limit.
    public init(_ bytes: [UInt8], path: [Int] = [], limits: ProtobufLimits = .standard) throws(ProtobufError) {
        guard bytes.count <= limits.maximumMessageSize else {
            throw .tooLarge(size: bytes.count, limit: limits.maximumMessageSize)
        }
        self.bytes = bytes
        self.index = 0
        self.end = bytes.count
        self.limits = limits
        self.depth = 0
        self.path = path
    }

    /// A reader of `range` of `parent`'s input, one level deeper when `nesting`.
    private init(nestedIn parent: ProtobufReader, range: Range<Int>, nesting: Bool) {
        bytes = parent.bytes
        index = range.lowerBound
        end = range.upperBound
        limits = parent.limits
        depth = nesting ? parent.depth + 1 : parent.depth
        path = []
    }

    /// True when every byte of this message has been read.
    public var isAtEnd: Bool { index >= end }

    /// The field numbers from this reader's message down to the field being read (from the
    /// outermost message once an error has passed up through the enclosing readers).
    public var fieldPath: [Int] { currentField.map { path + [$0.number] } ?? path }

    /// The current position, for errors.
    public var location: ProtobufErrorLocation { ProtobufErrorLocation(offset: index, path: fieldPath) }

    /// Skips the value of the previous field if it was not read, then reads the next tag.
    /// - Returns: the next field's tag, or nil at the end of the message.
    /// - Throws: for a malformed tag, an invalid field number or wire type, an end-group tag
    ///   outside a group, or a malformed value of a skipped field.
    public mutating func nextField() throws(ProtobufError) -> ProtobufFieldTag? {
        if let field = currentField {
            try skipValue(of: field)
            currentField = nil
        }
        guard index < end else { return nil }
        let tag = try readTag()
        if tag.wireType == .endGroup { throw .unmatchedGroup(ProtobufErrorLocation(offset: index, path: path)) }
        currentField = tag
        return tag
    }

    /// Reads the current field's value as `type`.
    ///
    /// Must follow a ``nextField()`` whose value was not read yet.
    /// - Throws: ``ProtobufError/wrongWireType(expected:found:_:)`` when the tag's wire type is
    ///   not `type`'s, or any error of the value itself.
    public mutating func read<T: ProtobufFieldType>(_ type: T.Type) throws(ProtobufError) -> T.Value {
        let field = pendingField()
        guard field.wireType == T.wireType else {
            throw .wrongWireType(expected: T.wireType, found: field.wireType, location)
        }
        let value = try T.read(from: &self)
        currentField = nil
        return value
    }

    /// The current field, which a value read requires.
    func pendingField() -> ProtobufFieldTag {
        guard let field = currentField else {
            preconditionFailure("ProtobufReader: a value read without a field tag (call nextField() first)")
        }
        return field
    }

    // MARK: Raw values (for ProtobufFieldType conformances)

    /// Reads a varint at the cursor: at most 10 bytes, the 10th at most 1. A one-byte varint —
    /// every tag of a field numbered up to 15, most lengths and small numbers — is read where
    /// this is called; a longer one by ``readLongVarintValue()``.
    @inline(__always)
    public mutating func readVarintValue() throws(ProtobufError) -> UInt64 {
        if index < end, bytes[index] < 0x80 {
            index += 1
            return UInt64(bytes[index - 1])
        }
        return try readLongVarintValue()
    }

    /// Reads a varint at the cursor, whatever its length.
    private mutating func readLongVarintValue() throws(ProtobufError) -> UInt64 {
        let start = index
        var result: UInt64 = 0
        for position in 0..<10 {
            guard index < end else { throw .truncated(ProtobufErrorLocation(offset: start, path: fieldPath)) }
            let byte = bytes[index]
            index += 1
            if position == 9 {
                guard byte <= 1 else { throw .malformedVarint(ProtobufErrorLocation(offset: start, path: fieldPath)) }
                return result | UInt64(byte) << 63
            }
            result |= UInt64(byte & 0x7F) << UInt64(7 * position)
            if byte & 0x80 == 0 { return result }
        }
        return result  // not reached: the 10th byte always returns or throws
    }

    /// Reads 4 little-endian bytes at the cursor.
    public mutating func readFixed32Value() throws(ProtobufError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readLittleEndian(byteCount: 4))
    }

    /// Reads 8 little-endian bytes at the cursor.
    public mutating func readFixed64Value() throws(ProtobufError) -> UInt64 {
        try readLittleEndian(byteCount: 8)
    }

    /// Reads a varint length at the cursor and the bytes it counts; the slice keeps the input's
    /// indices, so `startIndex` is the value's offset.
    public mutating func readLengthDelimitedValue() throws(ProtobufError) -> ArraySlice<UInt8> {
        bytes[try readLengthPrefixedRange()]
    }

    /// Reads a varint length at the cursor and hands the bytes it counts to `body`, with their
    /// offset in the input: ``readLengthDelimitedValue()`` without making a slice of the input.
    public mutating func readLengthDelimitedValue<T>(
        _ body: (UnsafeBufferPointer<UInt8>, _ offset: Int) -> T
    ) throws(ProtobufError) -> T {
        let range = try readLengthPrefixedRange()
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range]), range.lowerBound) }
    }

    /// Reads a length-delimited value at the cursor as a nested message of type `M`.
    mutating func readNestedMessage<M: ProtobufMessage>(_ type: M.Type) throws(ProtobufError) -> M {
        var nested = try nestedReader()
        return try readNested { () throws(ProtobufError) in try M(protobuf: &nested) }
    }

    /// Runs `read` over a nested reader of the current field; its errors get this reader's
    /// field path in front (nested readers keep no path of their own).
    func readNested<T>(_ read: () throws(ProtobufError) -> T) throws(ProtobufError) -> T {
        do throws(ProtobufError) {
            return try read()
        } catch {
            throw error.nested(under: fieldPath)
        }
    }

    /// Reads a length prefix at the cursor and returns a reader of the bytes it counts, inside
    /// the current field: a nested message (or map entry) one level deeper, or a packed run
    /// (`nesting: false`) at the same depth.
    /// - Throws: ``ProtobufError/tooDeep(limit:_:)`` when a message would pass the nesting limit.
    mutating func nestedReader(nesting: Bool = true) throws(ProtobufError) -> ProtobufReader {
        if nesting, depth >= limits.maximumDepth { throw .tooDeep(limit: limits.maximumDepth, location) }
        _ = pendingField()
        let range = try readLengthPrefixedRange()
        return ProtobufReader(nestedIn: self, range: range, nesting: nesting)
    }

    private mutating func readLittleEndian(byteCount: Int) throws(ProtobufError) -> UInt64 {
        guard end - index >= byteCount else { throw .truncated(location) }
        var value: UInt64 = 0
        for offset in 0..<byteCount { value |= UInt64(bytes[index + offset]) << UInt64(8 * offset) }
        index += byteCount
        return value
    }

    /// Reads a length prefix and returns the range of the bytes it counts, checked against the
    /// bytes left in this message before any conversion. Read where it is called (every
    /// string, bytes and nested message), its error made elsewhere.
    @inline(__always)
    private mutating func readLengthPrefixedRange() throws(ProtobufError) -> Range<Int> {
        let start = index
        let length = try readVarintValue()
        let remaining = end - index
        guard length <= UInt64(remaining) else { throw lengthOutOfBounds(length, remaining: remaining, at: start) }
        let range = index..<(index + Int(length))
        index = range.upperBound
        return range
    }

    /// The error of a length prefix at `start` that counts more than the `remaining` bytes.
    @inline(never)
    private func lengthOutOfBounds(_ length: UInt64, remaining: Int, at start: Int) -> ProtobufError {
        .lengthOutOfBounds(length: length, remaining: remaining, ProtobufErrorLocation(offset: start, path: fieldPath))
    }

    /// Reads and validates a tag at the cursor.
    private mutating func readTag() throws(ProtobufError) -> ProtobufFieldTag {
        let start = index
        let key = try readVarintValue()
        let number = key >> 3
        guard number >= 1, number <= UInt64(ProtobufFieldTag.maximumFieldNumber) else {
            throw .invalidFieldNumber(number, ProtobufErrorLocation(offset: start, path: fieldPath))
        }
        let rawWireType = UInt8(truncatingIfNeeded: key & 7)
        guard let wireType = ProtobufWireType(rawValue: rawWireType) else {
            throw .invalidWireType(rawWireType, ProtobufErrorLocation(offset: start, path: fieldPath))
        }
        return ProtobufFieldTag(number: Int(truncatingIfNeeded: number), wireType: wireType)
    }

    // MARK: Skipping

    /// Skips the value of `field`, whatever its wire type.
    private mutating func skipValue(of field: ProtobufFieldTag) throws(ProtobufError) {
        switch field.wireType {
        case .varint: _ = try readVarintValue()
        case .fixed32: _ = try readLittleEndian(byteCount: 4)
        case .fixed64: _ = try readLittleEndian(byteCount: 8)
        case .lengthDelimited: _ = try readLengthPrefixedRange()
        case .startGroup: try skipGroup(number: field.number, nesting: 1)
        case .endGroup: throw .unmatchedGroup(location)
        }
    }

    /// Skips the fields of a group up to the end-group tag of field `number`; `nesting` counts
    /// the groups open, against the depth limit, so a bomb of start-group tags ends in an error.
    private mutating func skipGroup(number: Int, nesting: Int) throws(ProtobufError) {
        guard depth + nesting <= limits.maximumDepth else { throw .tooDeep(limit: limits.maximumDepth, location) }
        while true {
            guard index < end else { throw .truncated(location) }
            let start = index
            let tag = try readTag()
            switch tag.wireType {
            case .endGroup:
                guard tag.number == number else { throw .unmatchedGroup(ProtobufErrorLocation(offset: start, path: fieldPath)) }
                return
            case .startGroup:
                try skipGroup(number: tag.number, nesting: nesting + 1)
            default:
                try skipValue(of: tag)
            }
        }
    }
}
