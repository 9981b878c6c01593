import IMockWire
import Testing

@Suite("Msync enums")
struct MsyncEnumTests {
    /// Every enum's cases: distinct numbers, each read back as its case, the schema's numbers.
    @Test func everyEnumMapsItsSchemaNumbers() {
        expect(MsyncPB.MSync.Version.self, [0, 1])
        expect(MsyncPB.MSync.Command.self, [0, 1, 2, 3, 4])
        expect(MsyncPB.EncryptType.self, [0, 1, 2])
        expect(MsyncPB.Provision.OsType.self, [0, 1, 2, 3, 4, 5, 16])
        expect(MsyncPB.Provision.NetworkType.self, [0, 1, 2, 3, 4, 5])
        expect(MsyncPB.Provision.CompressType.self, [0, 1])
        expect(MsyncPB.Status.ErrorCode.self, Array(0...19))
        expect(MsyncPB.Meta.NameSpace.self, Array(0...6))
        expect(MsyncPB.Meta.RouteType.self, [0, 1, 2])
        expect(MsyncPB.MessageBody.BodyType.self, Array(0...8))
        expect(MsyncPB.MessageBody.EditScope.self, [1, 2])
        expect(MsyncPB.MessageBody.Content.ContentType.self, Array(0...8))
        expect(MsyncPB.MessageBody.Content.SubType.self, [0, 1])
        expect(MsyncPB.KeyValue.ValueType.self, Array(1...8))
        expect(MsyncPB.StatisticsBody.Operation.self, Array(0...4))
    }

    @Test func namedCasesHaveTheSchemaNumbers() {
        #expect(MsyncPB.MSync.Command.provision.rawValue == 3)
        #expect(MsyncPB.Provision.OsType.other.rawValue == 16)
        #expect(MsyncPB.Status.ErrorCode.tooManyDevices.rawValue == 13)
        #expect(MsyncPB.Status.ErrorCode.permissionDeniedExternal.rawValue == 19)
        #expect(MsyncPB.StatisticsBody.Operation.userKickedByChangePassword.rawValue == 3)
        #expect(MsyncPB.Meta.NameSpace.query.rawValue == 6)
        #expect(MsyncPB.KeyValue.ValueType.jsonString.rawValue == 8)
        #expect(MsyncPB.MessageBody.EditScope.defaultValue == .body)
    }

    @Test func unknownNumbersAreKeptAndWrittenBack() throws {
        let frame = try MsyncPB.MSync(protobufBytes: hex("40 63"))
        #expect(frame.command == .unrecognized(99))
        #expect(frame.protobufBytes() == hex("40 63"))
        let negative = try MsyncPB.MSync(protobufBytes: hex("40 ff ff ff ff ff ff ff ff ff 01"))
        #expect(negative.command == .unrecognized(-1))
        #expect(negative.protobufBytes() == hex("40 ff ff ff ff ff ff ff ff ff 01"))
        let status = try MsyncPB.Status(protobufBytes: hex("08 e8 07"))
        #expect(status.errorCode == .unrecognized(1000))
    }

    private func expect<E: ProtobufEnum>(_ type: E.Type, _ numbers: [Int32], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(E.knownCases.map(\.rawValue) == numbers, "\(E.self)", sourceLocation: sourceLocation)
        for known in E.knownCases {
            #expect(E(rawValue: known.rawValue) == known, "\(E.self).\(known)", sourceLocation: sourceLocation)
        }
        #expect(E(rawValue: 1_000_000) == .unrecognized(1_000_000), sourceLocation: sourceLocation)
    }
}
