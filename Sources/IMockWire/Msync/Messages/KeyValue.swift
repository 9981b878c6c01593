extension MsyncPB {
    /// `KeyValue`: one typed extension attribute of a message or content.
    public struct KeyValue: ProtobufMessage {
        /// The `value` oneof: at most one of fields 3 … 6.
        public enum TypedValue: Sendable, Equatable {
            /// Field 3 `varintValue` (`int64`): BOOL, INT, UINT, LLINT.
            case varint(Int64)
            /// Field 4 `floatValue`.
            case float(Float)
            /// Field 5 `doubleValue`.
            case double(Double)
            /// Field 6 `stringValue`: STRING, JSON_STRING.
            case string(String)
        }

        /// Field 1.
        public var key: String?
        /// Field 2: how to read the value.
        public var type: ValueType?
        /// Fields 3 … 6; the last one read wins, as protobuf specifies for a oneof.
        public var value: TypedValue?

        /// The empty message.
        public init() {}

        /// The attribute `key` = `value` of `type` (nil parts are absent).
        public init(key: String? = nil, type: ValueType? = nil, value: TypedValue? = nil) {
            self.key = key
            self.type = type
            self.value = value
        }

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: key = try reader.read(ProtobufString.self)
                case 2: type = try reader.read(ValueType.self)
                case 3: value = .varint(try reader.read(ProtobufInt64.self))
                case 4: value = .float(try reader.read(ProtobufFloat.self))
                case 5: value = .double(try reader.read(ProtobufDouble.self))
                case 6: value = .string(try reader.read(ProtobufString.self))
                default: break
                }
            }
        }

        /// Writes the fields that are set.
        public func encode(to writer: inout ProtobufWriter) {
            writer.write(key, as: ProtobufString.self, field: 1)
            writer.write(type, as: ValueType.self, field: 2)
            switch value {
            case .varint(let number): writer.write(number, as: ProtobufInt64.self, field: 3)
            case .float(let number): writer.write(number, as: ProtobufFloat.self, field: 4)
            case .double(let number): writer.write(number, as: ProtobufDouble.self, field: 5)
            case .string(let text): writer.write(text, as: ProtobufString.self, field: 6)
            case nil: break
            }
        }

        /// `KeyValue.ValueType`.
        public enum ValueType: ProtobufEnum {
            /// `BOOL = 1`.
            case bool
            /// `INT = 2`.
            case int
            /// `UINT = 3`.
            case uint
            /// `LLINT = 4`.
            case llint
            /// `FLOAT = 5`.
            case float
            /// `DOUBLE = 6`.
            case double
            /// `STRING = 7`.
            case string
            /// `JSON_STRING = 8`.
            case jsonString
            /// A number the schema does not define.
            case unrecognized(Int32)

            /// The schema's values in order.
            public static let knownCases: [ValueType] = [.bool, .int, .uint, .llint, .float, .double, .string, .jsonString]

            /// The number on the wire.
            public var rawValue: Int32 {
                switch self {
                case .bool: 1
                case .int: 2
                case .uint: 3
                case .llint: 4
                case .float: 5
                case .double: 6
                case .string: 7
                case .jsonString: 8
                case .unrecognized(let value): value
                }
            }
        }
    }
}
