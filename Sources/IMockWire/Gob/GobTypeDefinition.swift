extension GobStruct {
    /// The body of this struct's type-definition message as type `id`: `-id`, then a
    /// `wireType` whose `StructT` is `structType{CommonType{Name, Id}, Field []fieldType{Name, Id}}`.
    func typeDefinition(id: Int) -> [UInt8] {
        id == GobTypeID.firstUser ? firstTypeDefinition : Self.typeDefinition(name: name, fields: fields, id: id)
    }

    static func typeDefinition(name: String, fields: [GobField<Root>], id: Int) -> [UInt8] {
        var out = GobWriter()
        out.writeInt(Int64(-id))
        var wireField = -1
        out.writeFieldDelta(to: 2, from: &wireField)  // wireType.StructT
        var structField = -1
        out.writeFieldDelta(to: 0, from: &structField)  // structType.CommonType
        writeNameAndID(name, id, into: &out)
        if !fields.isEmpty {
            out.writeFieldDelta(to: 1, from: &structField)  // structType.Field
            out.writeUint(UInt64(fields.count))
            for field in fields { writeNameAndID(field.name, field.kind.typeID, into: &out) }
        }
        out.writeStructEnd()  // structType
        out.writeStructEnd()  // wireType
        return out.bytes
    }

    /// `CommonType` and `fieldType` are both `{Name string; Id int}`.
    private static func writeNameAndID(_ name: String, _ id: Int, into out: inout GobWriter) {
        var last = -1
        if !name.isEmpty {
            out.writeFieldDelta(to: 0, from: &last)
            out.writeString(name)
        }
        out.writeFieldDelta(to: 1, from: &last)
        out.writeInt(Int64(id))
        out.writeStructEnd()
    }
}
