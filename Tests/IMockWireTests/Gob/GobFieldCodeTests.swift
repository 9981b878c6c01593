@testable import IMockWire
import Testing

/// The gateway structs write and read their fields with code of their own; these tests hold
/// it to the general path through ``GobStruct``'s key paths, bytes and errors alike.
@Suite("Gob field code")
struct GobFieldCodeTests {
    static let long = String(repeating: "é", count: 100)
    static let requests = [
        OpenIMGeneralWsReq(),
        OpenIMGeneralWsReq(reqIdentifier: 1003, token: "tok", sendID: "alice", operationID: "op", msgIncr: "m1", data: [1, 2]),
        OpenIMGeneralWsReq(reqIdentifier: -1, sendID: long, data: Array(repeating: 7, count: 300)),
        OpenIMGeneralWsReq(reqIdentifier: .max, token: long, msgIncr: "x"),
        OpenIMGeneralWsReq(reqIdentifier: .min, operationID: "ö"),
    ]
    static let responses = [
        OpenIMResp(),
        OpenIMResp(reqIdentifier: 2001, data: [0, 1, 2]),
        OpenIMResp(reqIdentifier: 1003, msgIncr: "m1", operationID: "op", errCode: 1001, errMsg: long, data: [9]),
        OpenIMResp(reqIdentifier: .min, errCode: -5, data: Array(repeating: 0xFF, count: 1000)),
        OpenIMResp(reqIdentifier: .max, msgIncr: long, operationID: long, errCode: .max),
    ]

    @Test("GeneralWsReq: its field code writes and reads what the key paths do")
    func request() throws {
        for value in Self.requests { try Self.checkBothPaths(value) }
    }

    @Test("Resp: its field code writes and reads what the key paths do")
    func response() throws {
        for value in Self.responses { try Self.checkBothPaths(value) }
    }

    @Test("both paths refuse a damaged value with the same error")
    func errors() {
        let bytes = Self.generalBytes(Self.responses[2])
        var damaged = (0..<bytes.count).map { Array(bytes.prefix($0)) }  // every truncation
        for index in bytes.indices where bytes[index] == 0xC3 {  // é: its lead byte made invalid
            var copy = bytes
            copy[index] = 0xFF
            damaged.append(copy)
        }
        for input in damaged {
            let own = Result { () throws(GobError) in try Self.read(input, Self.own(OpenIMResp.self)) }
            let general = Result { () throws(GobError) in try Self.read(input, Self.general(OpenIMResp.self)) }
            #expect(own == general, "\(input.hexString)")
        }
    }

    static func checkBothPaths<T: GobCodable & Equatable>(_ value: T) throws {
        var writer = GobFieldWriter(GobWriter())
        value.encodeGobFields(to: &writer)
        writer.endStruct()
        let bytes = generalBytes(value)
        #expect(writer.out.bytes == bytes)
        let ownRead = try read(bytes, own(T.self))
        let generalRead = try read(bytes, general(T.self))
        #expect(ownRead == value)
        #expect(generalRead == value)
    }

    /// The fields of `value` through the key paths, and the struct's end.
    static func generalBytes<T: GobCodable>(_ value: T) -> [UInt8] {
        var writer = GobFieldWriter(GobWriter())
        T.gobStruct.encodeFields(of: value, to: &writer)
        writer.endStruct()
        return writer.out.bytes
    }

    typealias FieldReader<T> = (inout T, Int, inout GobReader) throws(GobError) -> Void

    /// The type's own field code.
    static func own<T: GobCodable>(_ type: T.Type) -> FieldReader<T> {
        { (value, number, reader) throws(GobError) in try value.decodeGobField(number, from: &reader) }
    }

    /// The key paths.
    static func general<T: GobCodable>(_ type: T.Type) -> FieldReader<T> {
        { (value, number, reader) throws(GobError) in try T.gobStruct.decodeField(number, of: &value, from: &reader) }
    }

    /// A struct value's fields read from `bytes` with `readField`, as the decoder reads them.
    static func read<T: GobCodable>(_ bytes: [UInt8], _ readField: FieldReader<T>) throws(GobError) -> T {
        var value = T()
        var reader = GobReader(bytes, from: 0, to: bytes.count)
        reader.fieldNames = T.gobStruct.fieldNames
        try reader.readStruct(fieldCount: T.gobStruct.fields.count) { (reader, number) throws(GobError) in
            reader.fieldIndex = number
            try readField(&value, number, &reader)
        }
        return value
    }
}
