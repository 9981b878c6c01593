import IMockWire
import Testing

/// `type Point struct {X, Y int}`, the example of Go's encoding/gob doc.go.
struct Point: GobCodable, Equatable {
    var x = 0
    var y = 0
    static let gobStruct = GobStruct<Self>(name: "Point", fields: [.int("X", \.x), .int("Y", \.y)])
}

/// Every kind, for integer edges and round trips.
struct AllKinds: GobCodable, Equatable {
    var flag = false
    var signed = 0
    var unsigned: UInt64 = 0
    var text = ""
    var blob: [UInt8] = []
    static let gobStruct = GobStruct<Self>(name: "AllKinds", fields: [
        .bool("Flag", \.flag), .int("Signed", \.signed), .uint("Unsigned", \.unsigned),
        .string("Text", \.text), .bytes("Blob", \.blob),
    ])
}

@Suite("Gob encoder")
struct GobEncoderTests {
    /// The `Resp` type definition the reference mock sent and the PyPI client accepted.
    static let respTypeDefinition =
        "5f7f030101045265737001ff80000106010d5265714964656e74696669657201040001074d7367496e6372010c00010b4f7065726174696f6e4944010c000107457272436f646501040001064572724d7367010c00010444617461010a000000"
    /// The Go-generated `GeneralWsReq` type definition shipped in openim-sdk-core's gob_codec.py.
    static let generalWsReqTypeDefinition =
        "657f0301010c47656e6572616c577352657101ff80000106010d5265714964656e7469666965720104000105546f6b656e010c00010653656e644944010c00010b4f7065726174696f6e4944010c0001074d7367496e6372010c00010444617461010a000000"

    @Test("Resp: the type definition is byte for byte the reference's, then the value")
    func respTypeDefinition() {
        let bytes = GobEncoder.encodeMessage(OpenIMResp(reqIdentifier: 1001, msgIncr: "m1", operationID: "op", data: [1, 2]))
        let definitionLength = Self.respTypeDefinition.count / 2
        #expect(Array(bytes.prefix(definitionLength)).hexString == Self.respTypeDefinition)
        // Value: id 64, ReqIdentifier 1001 (zig-zag 2002 = fe 07d2), MsgIncr, OperationID, Data;
        // ErrCode 0 and ErrMsg "" are omitted (delta 3 jumps from field 2 to 5).
        #expect(Array(bytes.dropFirst(definitionLength)).hexString == "13ff8001fe07d201026d3101026f700302010200")
    }

    @Test("GeneralWsReq: the type definition is byte for byte Go's")
    func generalWsReqTypeDefinition() {
        let bytes = GobEncoder.encodeMessage(OpenIMGeneralWsReq())
        #expect(bytes.hexString == Self.generalWsReqTypeDefinition + "03ff8000")
    }

    @Test("Go's doc.go example: Point{22, 33} as type 65, then again without its definition")
    func goDocExample() {
        var encoder = GobEncoder()
        _ = encoder.encode(AllKinds())  // takes id 64, as another type did in the example
        let first = encoder.encode(Point(x: 22, y: 33))
        #expect(first == hex("""
            1f ff 81 03 01 01 05 50 6f 69 6e 74 01 ff 82 00
            01 02 01 01 58 01 04 00 01 01 59 01 04 00 00 00
            07 ff 82 01 2c 01 42 00
            """))
        #expect(encoder.encode(Point(x: 22, y: 33)) == hex("07 ff 82 01 2c 01 42 00"))
    }

    @Test("integers at their edges: one byte below 128, else the negated byte count and big-endian bytes")
    func integerEdges() throws {
        let cases: [(UInt64, String)] = [
            (1, "01"), (127, "7f"), (128, "ff80"), (255, "ffff"), (256, "fe0100"),
            (1 << 63, "f88000000000000000"), (UInt64.max, "f8ffffffffffffffff"),
        ]
        for (value, encoding) in cases {
            let bytes = GobEncoder.encodeMessage(AllKinds(unsigned: value))
            #expect(bytes.hexString.hasSuffix("ff8003" + encoding + "00"), "\(value)")
            #expect(try GobDecoder.decodeMessage(AllKinds.self, from: bytes).unsigned == value)
        }
        for value in [Int.min, -1, 1, -64, 63, 64, Int.max] {
            let decoded = try GobDecoder.decodeMessage(AllKinds.self, from: GobEncoder.encodeMessage(AllKinds(signed: value)))
            #expect(decoded.signed == value)
        }
        // -1 is 1 (sign bit), Int.min is f8 ffff…ff.
        #expect(GobEncoder.encodeMessage(AllKinds(signed: -1)).suffix(3) == [0x02, 0x01, 0x00])
        #expect(GobEncoder.encodeMessage(AllKinds(signed: .min)).suffix(11).hexString == "02f8ffffffffffffffff00")
    }

    @Test("every kind round-trips; zero values are not sent")
    func roundTrip() throws {
        let value = AllKinds(flag: true, signed: -5, unsigned: 7, text: "héllo", blob: [0, 255])
        #expect(try GobDecoder.decodeMessage(AllKinds.self, from: GobEncoder.encodeMessage(value)) == value)
        let zero = GobEncoder.encodeMessage(AllKinds())
        #expect(zero.suffix(4) == [3, 0xFF, 0x80, 0])  // id 64 and the terminator only
    }
}
