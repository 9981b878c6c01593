import IMockWire
import Testing

@Suite("Protobuf reader on malformed input")
struct MalformedInputTests {
    @Test(arguments: [
        ("72 ff ff ff ff 0f", UInt64(UInt32.max), 0),
        ("72 ff ff ff ff ff ff ff ff ff 01", UInt64.max, 0),
        ("72 80 80 80 80 80 80 80 80 80 01", UInt64(1) << 63, 0),
        ("72 03 61 62", 3, 2),
    ])
    func absurdLengthPrefixesAreCheckedBeforeUse(bytes: String, length: UInt64, remaining: Int) {
        let error = protobufError { _ = try Scalars(protobufBytes: hex(bytes)) }
        #expect(error == .lengthOutOfBounds(length: length, remaining: remaining, ProtobufErrorLocation(offset: 1, path: [14])))
    }

    @Test func absurdLengthOfAnUnknownFieldIsCheckedToo() {
        let error = protobufError { _ = try Scalars(protobufBytes: hex("fa 07 ff ff ff ff ff ff ff ff ff 01")) }
        #expect(error == .lengthOutOfBounds(length: .max, remaining: 0, ProtobufErrorLocation(offset: 2, path: [127])))
    }

    @Test func aNestedLengthCannotReachPastItsParent() {
        // children: an entry of 3 bytes whose key claims 5.
        let error = protobufError { _ = try Scalars(protobufBytes: hex("a2 01 03 0a 05 61  62 63 64 65")) }
        #expect(error == .lengthOutOfBounds(length: 5, remaining: 1, ProtobufErrorLocation(offset: 4, path: [20, 1])))
    }

    @Test func fieldNumberZeroAndTooLargeAreInvalid() {
        #expect(protobufError { _ = try Scalars(protobufBytes: hex("00 01")) } == .invalidFieldNumber(0, .init(offset: 0, path: [])))
        #expect(protobufError { _ = try Scalars(protobufBytes: hex("80 80 80 80 10 00")) } == .invalidFieldNumber(1 << 29, .init(offset: 0, path: [])))
        let maximum = protobufError { _ = try Scalars(protobufBytes: hex("ff ff ff ff ff ff ff ff ff 01")) }
        #expect(maximum == .invalidFieldNumber(UInt64.max >> 3, .init(offset: 0, path: [])))
        // The largest valid number is fine (and skipped).
        #expect(throws: Never.self) { try Scalars(protobufBytes: hex("f8 ff ff ff 0f 00")) }
    }

    @Test(arguments: [UInt8(6), 7])
    func wireTypesSixAndSevenAreInvalid(wireType: UInt8) {
        let error = protobufError { _ = try Scalars(protobufBytes: [0x08 | wireType, 0]) }
        #expect(error == .invalidWireType(wireType, .init(offset: 0, path: [])))
    }

    @Test func unknownFieldsOfEveryWireTypeAreSkipped() throws {
        let bytes = hex("""
            a8 06 96 01
            a9 06 01 02 03 04 05 06 07 08
            aa 06 02 ff ff
            ab 06  b0 06 01  bb 06 bc 06  b2 06 00  ac 06
            ad 06 01 02 03 04
            20 2a
            """)
        #expect(try Scalars(protobufBytes: bytes).uint64 == 42)
    }

    @Test func groupErrors() {
        // An end-group tag with no start.
        #expect(protobufError { _ = try Scalars(protobufBytes: hex("ac 06")) } == .unmatchedGroup(.init(offset: 2, path: [])))
        // A group of field 101 closed by field 102's end tag.
        #expect(protobufError { _ = try Scalars(protobufBytes: hex("ab 06 b4 06")) } == .unmatchedGroup(.init(offset: 2, path: [101])))
        // A group that never ends.
        #expect(protobufError { _ = try Scalars(protobufBytes: hex("ab 06 08 01")) } == .truncated(.init(offset: 4, path: [101])))
        // A known field sent as a group.
        #expect(
            protobufError { _ = try Scalars(protobufBytes: hex("23 24")) }
                == .wrongWireType(expected: .varint, found: .startGroup, .init(offset: 1, path: [4])))
    }

    @Test func aGroupBombEndsAtTheDepthLimit() {
        // Start-group tags of the unknown field 100, never closed.
        let bomb = (0..<50_000).flatMap { _ in hex("a3 06") }
        let error = protobufError { _ = try Scalars(protobufBytes: bomb) }
        #expect(error == .tooDeep(limit: ProtobufLimits.defaultMaximumDepth, .init(offset: 202, path: [100])))
    }

    @Test func groupsNestedUpToTheLimitAreSkipped() throws {
        let limit = ProtobufLimits.defaultMaximumDepth
        let open = (0..<limit).flatMap { _ in hex("a3 06") }
        let close = (0..<limit).flatMap { _ in hex("a4 06") }
        let nested = open + close + hex("20 01")
        #expect(try Scalars(protobufBytes: nested).uint64 == 1)
    }

    @Test func messagesNestedUpToTheLimitDecode() throws {
        let deepest = Node.chain(depth: ProtobufLimits.defaultMaximumDepth + 1)
        #expect(try Node(protobufBytes: deepest.protobufBytes()) == deepest)
    }

    @Test func aMessageNestingBombEndsAtTheDepthLimit() {
        let tooDeep = Node.chain(depth: ProtobufLimits.defaultMaximumDepth + 2).protobufBytes()
        let error = protobufError { _ = try Node(protobufBytes: tooDeep) }
        guard case .tooDeep(let limit, let location) = error else {
            Issue.record("expected tooDeep, got \(String(describing: error))")
            return
        }
        #expect(limit == ProtobufLimits.defaultMaximumDepth)
        #expect(location.path == [Int](repeating: 1, count: limit + 1))
        // Hand-made: field 1 of length 10, repeated; each level claims more than its parent holds.
        let bomb = [UInt8](repeating: 0x0A, count: 20_000)
        #expect(protobufError { _ = try Node(protobufBytes: bomb) } == .lengthOutOfBounds(length: 10, remaining: 8, .init(offset: 3, path: [1, 1])))
    }

    @Test func customLimits() throws {
        let limits = ProtobufLimits(maximumDepth: 2, maximumMessageSize: 8)
        #expect(try Node(protobufBytes: Node.chain(depth: 3).protobufBytes(), limits: limits) == Node.chain(depth: 3))
        #expect(
            protobufError { _ = try Node(protobufBytes: Node.chain(depth: 4).protobufBytes(), limits: limits) }
                == .tooDeep(limit: 2, .init(offset: 5, path: [1, 1, 1])))
        #expect(protobufError { _ = try Node(protobufBytes: [UInt8](repeating: 0x10, count: 9), limits: limits) } == .tooLarge(size: 9, limit: 8))
        #expect(ProtobufLimits(maximumDepth: -1, maximumMessageSize: -5) == ProtobufLimits(maximumDepth: 0, maximumMessageSize: 0))
    }

    @Test func packedRunsDoNotCountAsNestingButMapEntriesDo() throws {
        let flat = ProtobufLimits(maximumDepth: 0, maximumMessageSize: 64)
        #expect(try Scalars(protobufBytes: hex("82 01 02 01 02"), limits: flat).packedInts == [1, 2])
        #expect(
            protobufError { _ = try Scalars(protobufBytes: hex("9a 01 02 10 01"), limits: flat) }
                == .tooDeep(limit: 0, .init(offset: 2, path: [19])))
    }

    @Test func theDefaultSizeLimitHolds() {
        let size = ProtobufLimits.defaultMaximumMessageSize + 1
        let error = protobufError { _ = try Scalars(protobufBytes: [UInt8](repeating: 0x20, count: size)) }
        #expect(error == .tooLarge(size: size, limit: ProtobufLimits.defaultMaximumMessageSize))
        #expect(error?.location == nil)
    }
}
