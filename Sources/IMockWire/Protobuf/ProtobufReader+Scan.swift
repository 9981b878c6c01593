/// What the one-pass scanners of hot messages (``MsyncSyncScanner``, ``MsyncPageScanner``,
/// OpenIM's `scanned` readers) need of ``ProtobufReader`` besides ``ProtobufReader/nextField()``
/// and ``ProtobufReader/read(_:)``: a field's bytes read in place (as a message of their own,
/// or as a range of the input), a string checked without being made, and a scan run over
/// bytes with any error turned into "not scanned". Every check is the general reader's own, so
/// a scan built on these accepts no input the general decoders refuse.
extension ProtobufReader {
    /// `body` run over a reader of `bytes` (the standard limits): its answer, or nil when the
    /// input is over the size limit or `body` throws — a scan's "leave it to the general
    /// reader", which reads the bytes again and says what is wrong.
    @inline(__always)
    static func scanned<T>(_ bytes: [UInt8], _ body: (inout ProtobufReader) throws(ProtobufError) -> T?) -> T? {
        do throws(ProtobufError) {
            var reader = try ProtobufReader(bytes)
            return try body(&reader)
        } catch {
            return nil
        }
    }

    /// The current length-delimited field's bytes as a reader of their own, in place: a
    /// nested message (`nesting`, one level deeper) or a `bytes` field holding an encoded
    /// message (same depth; the general path decodes such a field as a message of its own).
    /// - Throws: ``ProtobufError/wrongWireType(expected:found:_:)`` for another wire type, and
    ///   what ``nestedReader(nesting:)`` throws.
    mutating func inPlaceValue(nesting: Bool = false) throws(ProtobufError) -> ProtobufReader {
        try requireLengthDelimited()
        let nested = try nestedReader(nesting: nesting)
        currentField = nil
        return nested
    }

    /// The current field's bytes read as `read(ProtobufBytes.self)` reads them — the same wire
    /// type, the same checks — but neither copied nor sliced: their range in the input (the
    /// array the reader was made with).
    mutating func rangeInPlace() throws(ProtobufError) -> Range<Int> {
        try requireLengthDelimited()
        let range = try readLengthDelimitedValue { bytes, offset in offset..<(offset + bytes.count) }
        currentField = nil
        return range
    }

    /// Reads the current field as `read(ProtobufString.self)` does — the same wire type, the
    /// same UTF-8 check, the same errors — without making the string.
    mutating func checkString() throws(ProtobufError) {
        try requireLengthDelimited()
        let (valid, offset) = try readLengthDelimitedValue { bytes, offset in (ProtobufString.isValid(bytes), offset) }
        guard valid else { throw .invalidUTF8(ProtobufErrorLocation(offset: offset, path: fieldPath)) }
        currentField = nil
    }

    /// Throws ``ProtobufError/wrongWireType(expected:found:_:)`` unless the current field is
    /// length-delimited, as ``read(_:)`` of a length-delimited type does.
    private func requireLengthDelimited() throws(ProtobufError) {
        let field = pendingField()
        guard field.wireType == .lengthDelimited else {
            throw .wrongWireType(expected: .lengthDelimited, found: field.wireType, location)
        }
    }
}
