extension ProtobufReader {
    /// Appends the current field's values to `values`: one value when the field has `type`'s
    /// wire type, or every value of a packed run when `type` is a scalar and the field is
    /// length-delimited. Decoders accept both forms for every repeated scalar, as protobuf
    /// requires, whichever form the schema declares.
    public mutating func readRepeated<T: ProtobufFieldType>(
        _ type: T.Type, into values: inout [T.Value]
    ) throws(ProtobufError) {
        guard pendingField().wireType == .lengthDelimited, T.wireType.isPackable else {
            values.append(try read(type))
            return
        }
        var packed = try nestedReader(nesting: false)
        try readNested { () throws(ProtobufError) in
            while !packed.isAtEnd { values.append(try T.read(from: &packed)) }
        }
        currentField = nil
    }

    /// Reads the current field as one entry of a `map<K, V>` (a nested message with the key in
    /// field 1 and the value in field 2) and stores it in `map`; a missing key or value is its
    /// type's default, and a repeated key keeps the last value, as protobuf specifies.
    public mutating func readMapEntry<K: ProtobufFieldType, V: ProtobufFieldType>(
        key: K.Type, value: V.Type, into map: inout [K.Value: V.Value]
    ) throws(ProtobufError) where K.Value: Hashable {
        let field = pendingField()
        guard field.wireType == .lengthDelimited else {
            throw .wrongWireType(expected: .lengthDelimited, found: field.wireType, location)
        }
        var entry = try nestedReader()
        var entryKey = K.defaultValue
        var entryValue = V.defaultValue
        try readNested { () throws(ProtobufError) in
            while let entryField = try entry.nextField() {
                switch entryField.number {
                case 1: entryKey = try entry.read(K.self)
                case 2: entryValue = try entry.read(V.self)
                default: break
                }
            }
        }
        map[entryKey] = entryValue
        currentField = nil
    }
}

extension ProtobufWireType {
    /// Whether repeated values of this wire type may be packed into one length-delimited run.
    var isPackable: Bool { self == .varint || self == .fixed32 || self == .fixed64 }
}
