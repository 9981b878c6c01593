import IMockCommon
import IMockCore
import IMockWire
import Testing

@Suite("Gob decoder")
struct GobDecoderTests {
    typealias Req = OpenIMGeneralWsReq
    static let reqDefinition = hex(GobEncoderTests.generalWsReqTypeDefinition)

    @Test("a GeneralWsReq as the PyPI client frames it: Go's type definition, then the value")
    func pythonClientFrame() throws {
        let value = HandGob.value(64, [1] + HandGob.int(1003) + [1] + HandGob.string("tok") + [1] + HandGob.string("alice")
            + [1] + HandGob.string("1700000000000") + [1] + HandGob.string("alice_1") + [1] + HandGob.string("\u{1}\u{2}") + [0])
        let request = try GobDecoder.decodeMessage(Req.self, from: Self.reqDefinition + value)
        #expect(request == Req(reqIdentifier: 1003, token: "tok", sendID: "alice", operationID: "1700000000000",
                               msgIncr: "alice_1", data: [1, 2]))
    }

    @Test("fields are matched by name, whatever order the peer declares them in")
    func peerFieldOrder() throws {
        let stream = HandGob.structDefinition(70, "P", [("Y", 2), ("X", 2)]) + HandGob.value(70, [1, 66, 1, 44, 0])
        #expect(try GobDecoder.decodeMessage(Point.self, from: stream) == Point(x: 22, y: 33))
    }

    @Test("unknown fields of every kind are skipped: numbers, strings, structs, slices, arrays, maps, GobEncoders")
    func skipsUnknownFields() throws {
        let definitions = HandGob.mapDefinition(65, key: 6, element: 2)
            + HandGob.structDefinition(66, "Inner", [("A", 2), ("B", 6)])
            + HandGob.sliceDefinition(67, element: 66)
            + HandGob.arrayDefinition(68, element: 2, length: 2)
            + HandGob.message(HandGob.int(-69) + [5, 1] + HandGob.nameAndID("time.Time", 69) + [0, 0])
            + HandGob.structDefinition(64, "Req", [
                ("Extra", 65), ("Inner", 66), ("List", 67), ("Arr", 68), ("When", 69), ("F", 4), ("C", 7),
                ("U", 3), ("Flag", 1), ("Bin", 5), ("Token", 6), ("ReqIdentifier", 2),
            ])
        let inner = [1] + HandGob.int(-7) + [1] + HandGob.string("b") + [0]
        let fields: [UInt8] = [1] + [2] + HandGob.string("k1") + HandGob.int(1) + HandGob.string("k2") + HandGob.int(2)
            + [1] + inner
            + [1] + [2] + inner + [0]
            + [1] + [2] + HandGob.int(5) + HandGob.int(6)
            + [1] + HandGob.string("opaque")
            + [1] + HandGob.uint(UInt64(0x4045_0000_0000_0000).byteSwapped)
            + [1] + [0x40, 0x3F]
            + [1] + HandGob.uint(UInt64.max)
            + [1] + [1]
            + [1] + HandGob.string("raw")
            + [1] + HandGob.string("tok")
            + [1] + HandGob.int(2001) + [0]
        let request = try GobDecoder.decodeMessage(Req.self, from: definitions + HandGob.value(64, fields))
        #expect(request == Req(reqIdentifier: 2001, token: "tok"))
    }

    @Test("several values on one stream; each type is defined once")
    func stream() throws {
        var encoder = GobEncoder()
        let values = [Req(reqIdentifier: 1), Req(reqIdentifier: 2, token: "t"), Req(reqIdentifier: 3, data: [9])]
        let bytes = values.flatMap { encoder.encode($0) }
        var decoder = GobDecoder(bytes)
        for value in values { #expect(try decoder.decode(Req.self) == value) }
        #expect(decoder.isAtEnd)
        #expect(throws: GobError.endOfStream) { try decoder.decode(Req.self) }
    }

    @Test("a struct that runs to the end of its message without a terminator is accepted, as Go does")
    func missingTerminator() throws {
        #expect(try GobDecoder.decodeMessage(Req.self, from: Self.reqDefinition + HandGob.value(64, [1, 4])).reqIdentifier == 2)
    }

    static let errorCases: [(String, [UInt8], GobError)] = [
        ("empty input", [], .endOfStream),
        ("a type definition and no value", reqDefinition, .truncated("a stream: a value must follow its type definitions")),
        ("a uint prefix announcing 128 bytes", [0x80], .uintOutOfRange),
        ("a uint prefix announcing 9 bytes", [0xF7] + [UInt8](repeating: 1, count: 9), .uintOutOfRange),
        ("a message length of 2^64-1", [0xF8] + [UInt8](repeating: 0xFF, count: 8), .messageTooLong(length: .max, limit: 1 << 20)),
        ("a message longer than the input", [5, 3, 0xFF], .truncated("a message")),
        ("a uint cut short", [2, 0xFE, 1], .truncated("a type id")),
        ("a type definition for reserved id 1", HandGob.structDefinition(1, "R", [("A", 2)]), .invalidTypeID(1)),
        ("a type definition for id 63", HandGob.structDefinition(63, "R", [("A", 2)]), .invalidTypeID(63)),
        ("a type id beyond 32 bits", HandGob.message(HandGob.int(-(1 << 40))), .invalidTypeID(1 << 40)),
        ("a type defined twice", reqDefinition + reqDefinition, .duplicateType(64)),
        ("a value of an undefined type", HandGob.value(65, [0]), .undefinedType(65)),
        ("a value of a basic type", HandGob.value(2, [0, 4]), .notAStruct(typeID: 2)),
        ("a value of a slice type", HandGob.sliceDefinition(65, element: 2) + HandGob.value(65, [1, 2]), .notAStruct(typeID: 65)),
        ("a type definition with no kind", HandGob.message(HandGob.int(-64) + [0]), .unsupportedType("a type definition with no kind")),
        ("a type definition with two kinds", HandGob.message(HandGob.int(-64) + [2, 1, 0, 0, 1, 1, 0, 0, 0]),
         .unsupportedType("a type definition with more than one kind")),
        ("a field delta past the last field", reqDefinition + HandGob.value(64, [7, 2, 0]), .fieldNumberOutOfRange),
        ("bytes after the value", reqDefinition + HandGob.value(64, [1, 2, 0, 0]), .extraData(1)),
        ("bytes after a type definition", HandGob.message(Array(reqDefinition.dropFirst()) + [0]), .extraData(1)),
        ("a message after the value", GobEncoder.encodeMessage(Req()) + [1, 0], .extraData(2)),
        ("a Token that is not UTF-8", reqDefinition + HandGob.value(64, [2, 2, 0xC3, 0x28, 0]), .invalidUTF8(field: "Token")),
        ("a string longer than its message", reqDefinition + HandGob.value(64, [2, 0x7F, 0x41, 0]), .countTooLarge(127)),
        ("a known field with another wire type", HandGob.structDefinition(64, "Req", [("Token", 2)]) + HandGob.value(64, [0]),
         .wrongFieldType(field: "Token", expected: 6, received: 2)),
        ("no field in common", HandGob.structDefinition(64, "Other", [("Foo", 2)]) + HandGob.value(64, [1, 2, 0]),
         .noMatchingFields("GeneralWsReq")),
        ("an empty field name", HandGob.structDefinition(64, "Req", [("", 2)]), .emptyFieldName),
        ("an unknown interface field", HandGob.structDefinition(64, "Req", [("Any", 8), ("Token", 6)])
            + HandGob.value(64, [1, 0, 0]), .unsupportedType("an interface value in a skipped field")),
        ("an unknown field of an undefined type", HandGob.structDefinition(64, "Req", [("X", 90), ("Token", 6)])
            + HandGob.value(64, [1, 0, 0]), .undefinedType(90)),
        ("an array of the wrong length", HandGob.arrayDefinition(65, element: 2, length: 2)
            + HandGob.structDefinition(64, "Req", [("A", 65), ("Token", 6)]) + HandGob.value(64, [1, 3, 2, 2, 2, 0]),
         .arrayLengthMismatch),
        ("a map count beyond the message", HandGob.mapDefinition(65, key: 2, element: 2)
            + HandGob.structDefinition(64, "Req", [("M", 65), ("Token", 6)]) + HandGob.value(64, [1, 3, 2, 2, 0]),
         .countTooLarge(3)),
        ("a slice whose elements run out", HandGob.structDefinition(66, "E", [("A", 2)]) + HandGob.sliceDefinition(65, element: 66)
            + HandGob.structDefinition(64, "Req", [("S", 65), ("Token", 6)]) + HandGob.value(64, [1, 2, 1, 4]),
         .truncated("a slice, array or map")),
    ]

    @Test("malformed and hostile input gets a typed error", arguments: errorCases.indices)
    func errors(_ index: Int) {
        let (name, bytes, expected) = Self.errorCases[index]
        #expect(throws: expected, "\(name)") { try GobDecoder.decodeMessage(Req.self, from: bytes) }
    }

    @Test("limits: type definitions, fields, names, message length and nesting depth")
    func limits() throws {
        var tight = GobLimits.standard
        tight.maximumMessageLength = 64
        tight.maximumTypeDefinitions = 2
        tight.maximumFieldCount = 3
        tight.maximumNameLength = 8
        let threeTypes = (65...67).flatMap { HandGob.sliceDefinition($0, element: 2) }
        #expect(throws: GobError.limitExceeded("more than 2 type definitions")) {
            try GobDecoder.decodeMessage(Req.self, from: threeTypes, limits: tight)
        }
        let fourFields = HandGob.structDefinition(64, "R", [("A", 2), ("B", 2), ("C", 2), ("D", 2)])
        #expect(throws: GobError.limitExceeded("4 fields exceed 3")) { try GobDecoder.decodeMessage(Req.self, from: fourFields, limits: tight) }
        // Go's own GeneralWsReq definition is read as such only within the limits.
        let ownDefinition = HandGob.structDefinition(64, "GeneralWsReq", [
            ("ReqIdentifier", 2), ("Token", 6), ("SendID", 6), ("OperationID", 6), ("MsgIncr", 6), ("Data", 5),
        ])
        #expect(ownDefinition == Self.reqDefinition)
        var roomy = GobLimits.standard
        roomy.maximumFieldCount = 3
        #expect(throws: GobError.limitExceeded("6 fields exceed 3")) {
            try GobDecoder.decodeMessage(Req.self, from: ownDefinition, limits: roomy)
        }
        roomy = .standard
        roomy.maximumNameLength = 12
        #expect(throws: GobError.limitExceeded("a name of 13 bytes exceeds 12")) {
            try GobDecoder.decodeMessage(Req.self, from: ownDefinition, limits: roomy)
        }
        roomy.maximumNameLength = 13
        #expect(try GobDecoder.decodeMessage(Req.self, from: ownDefinition + HandGob.value(64, [1, 2, 0])).reqIdentifier == 1)
        let longName = HandGob.structDefinition(64, "R", [("ABCDEFGHI", 2)])
        #expect(throws: GobError.limitExceeded("a name of 9 bytes exceeds 8")) {
            try GobDecoder.decodeMessage(Req.self, from: longName, limits: tight)
        }
        #expect(throws: GobError.messageTooLong(length: 101, limit: 64)) {
            try GobDecoder.decodeMessage(Req.self, from: Self.reqDefinition, limits: tight)
        }
        // type T struct { Kids []T; Token string }: a value nested 40 deep in the unknown field.
        let recursive = HandGob.sliceDefinition(65, element: 64) + HandGob.structDefinition(64, "T", [("Kids", 65), ("Token", 6)])
        func kids(_ depth: Int) -> [UInt8] { depth == 0 ? [0] : [1, 1] + kids(depth - 1) + [0] }  // Kids: [T{Kids: …}]
        #expect(throws: GobError.limitExceeded("values nested deeper than 32")) {
            try GobDecoder.decodeMessage(Req.self, from: recursive + HandGob.value(64, [1, 1] + kids(40) + [0]))
        }
        let value = HandGob.value(64, [1, 1] + kids(10) + [1] + HandGob.string("t") + [0])
        #expect(try GobDecoder.decodeMessage(Req.self, from: recursive + value).token == "t")
    }

    @Test("the fuzz seed corpus holds real, valid streams")
    func fuzzSeeds() throws {
        let seeds = try CorpusFiles.seeds("gob")
        #expect(seeds.count == 5)
        for (name, bytes) in seeds {
            switch name {
            case "resp_1001.bin": #expect(try GobDecoder.decodeMessage(OpenIMResp.self, from: bytes).reqIdentifier == 1001)
            case "point_go_doc.bin": #expect(try GobDecoder.decodeMessage(Point.self, from: bytes) == Point(x: 22, y: 33))
            case "unknown_fields_nested_types.bin":
                #expect(try GobDecoder.decodeMessage(Req.self, from: bytes) == Req(reqIdentifier: 2001, token: "tok"))
            default: #expect(throws: Never.self, "\(name)") { try GobDecoder.decodeMessage(Req.self, from: bytes) }
            }
        }
    }

    @Test("after an error the decoder stays failed")
    func stickyFailure() {
        var decoder = GobDecoder([0x80] + GobEncoder.encodeMessage(Req()))
        #expect(throws: GobError.uintOutOfRange) { try decoder.decode(Req.self) }
        #expect(throws: GobError.uintOutOfRange) { try decoder.decode(Req.self) }
    }

    @Test("every truncation and 20 000 random corruptions of real frames end in an error or a value, never a trap")
    func neverTraps() {
        let frames = [
            GobEncoder.encodeMessage(Req(reqIdentifier: 1003, token: "tok", sendID: "alice", operationID: "1", msgIncr: "m", data: [1])),
            GobEncoder.encodeMessage(OpenIMResp(reqIdentifier: 2001, errCode: -1, errMsg: "x", data: [1, 2, 3])),
        ]
        for frame in frames {
            for length in 0..<frame.count {
                #expect(throws: GobError.self) { try GobDecoder.decodeMessage(Req.self, from: frame.prefix(length)) }
            }
        }
        var random = SplitMix64(seed: 0x60B)
        for round in 0..<20_000 {
            var bytes = frames[round % 2]
            for _ in 0...(random.next() % 4) {
                let index = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes[index] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: index)
                default: bytes.remove(at: index)
                }
                if bytes.isEmpty { break }
            }
            _ = try? GobDecoder.decodeMessage(Req.self, from: bytes)
            _ = try? GobDecoder.decodeMessage(OpenIMResp.self, from: bytes)
        }
    }
}
