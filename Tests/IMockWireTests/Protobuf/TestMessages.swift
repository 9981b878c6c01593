import IMockWire

/// A message with one field of every scalar type, optional (proto2-style), for codec tests.
struct Scalars: ProtobufMessage {
    var int32: Int32?
    var int64: Int64?
    var uint32: UInt32?
    var uint64: UInt64?
    var sint32: Int32?
    var sint64: Int64?
    var bool: Bool?
    var fixed32: UInt32?
    var fixed64: UInt64?
    var sfixed32: Int32?
    var sfixed64: Int64?
    var float: Float?
    var double: Double?
    var string: String?
    var bytes: [UInt8]?
    var packedInts: [Int32] = []
    var unpackedSInts: [Int64] = []
    var names: [String] = []
    var counts: [String: Int64] = [:]
    var children: [String: Scalars] = [:]

    init() {}

    init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
        self.init()
        while let field = try reader.nextField() {
            switch field.number {
            case 1: int32 = try reader.read(ProtobufInt32.self)
            case 2: int64 = try reader.read(ProtobufInt64.self)
            case 3: uint32 = try reader.read(ProtobufUInt32.self)
            case 4: uint64 = try reader.read(ProtobufUInt64.self)
            case 5: sint32 = try reader.read(ProtobufSInt32.self)
            case 6: sint64 = try reader.read(ProtobufSInt64.self)
            case 7: bool = try reader.read(ProtobufBool.self)
            case 8: fixed32 = try reader.read(ProtobufFixed32.self)
            case 9: fixed64 = try reader.read(ProtobufFixed64.self)
            case 10: sfixed32 = try reader.read(ProtobufSFixed32.self)
            case 11: sfixed64 = try reader.read(ProtobufSFixed64.self)
            case 12: float = try reader.read(ProtobufFloat.self)
            case 13: double = try reader.read(ProtobufDouble.self)
            case 14: string = try reader.read(ProtobufString.self)
            case 15: bytes = try reader.read(ProtobufBytes.self)
            case 16: try reader.readRepeated(ProtobufInt32.self, into: &packedInts)
            case 17: try reader.readRepeated(ProtobufSInt64.self, into: &unpackedSInts)
            case 18: try reader.readRepeated(ProtobufString.self, into: &names)
            case 19: try reader.readMapEntry(key: ProtobufString.self, value: ProtobufInt64.self, into: &counts)
            case 20: try reader.readMapEntry(key: ProtobufString.self, value: Scalars.self, into: &children)
            default: break
            }
        }
    }

    func encode(to writer: inout ProtobufWriter) {
        writer.write(int32, as: ProtobufInt32.self, field: 1)
        writer.write(int64, as: ProtobufInt64.self, field: 2)
        writer.write(uint32, as: ProtobufUInt32.self, field: 3)
        writer.write(uint64, as: ProtobufUInt64.self, field: 4)
        writer.write(sint32, as: ProtobufSInt32.self, field: 5)
        writer.write(sint64, as: ProtobufSInt64.self, field: 6)
        writer.write(bool, as: ProtobufBool.self, field: 7)
        writer.write(fixed32, as: ProtobufFixed32.self, field: 8)
        writer.write(fixed64, as: ProtobufFixed64.self, field: 9)
        writer.write(sfixed32, as: ProtobufSFixed32.self, field: 10)
        writer.write(sfixed64, as: ProtobufSFixed64.self, field: 11)
        writer.write(float, as: ProtobufFloat.self, field: 12)
        writer.write(double, as: ProtobufDouble.self, field: 13)
        writer.write(string, as: ProtobufString.self, field: 14)
        writer.write(bytes, as: ProtobufBytes.self, field: 15)
        writer.writePacked(packedInts, as: ProtobufInt32.self, field: 16)
        writer.writeRepeated(unpackedSInts, as: ProtobufSInt64.self, field: 17)
        writer.writeRepeated(names, as: ProtobufString.self, field: 18)
        writer.writeMap(counts, key: ProtobufString.self, value: ProtobufInt64.self, field: 19)
        writer.writeMap(children, key: ProtobufString.self, value: Scalars.self, field: 20)
    }
}

/// A message that holds itself (field 1, repeated) and a number (field 2), for nesting tests.
struct Node: ProtobufMessage {
    var children: [Node] = []
    var value: UInt64?

    init() {}

    init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
        self.init()
        while let field = try reader.nextField() {
            switch field.number {
            case 1: try reader.readRepeated(Node.self, into: &children)
            case 2: value = try reader.read(ProtobufUInt64.self)
            default: break
            }
        }
    }

    func encode(to writer: inout ProtobufWriter) {
        writer.writeRepeated(children, as: Node.self, field: 1)
        writer.write(value, as: ProtobufUInt64.self, field: 2)
    }

    /// `depth` nodes, each the only child of the one before; the innermost has `value` 7.
    static func chain(depth: Int) -> Node {
        var node = Node()
        node.value = 7
        for _ in 1..<max(1, depth) {
            var parent = Node()
            parent.children = [node]
            node = parent
        }
        return node
    }
}
