import IMockWire
import Testing

@Suite("Protobuf length-delimited bodies")
struct LengthDelimitedTests {
    /// A body written in place gets its length in front, however many bytes the length takes,
    /// and what was written before it stays.
    @Test(arguments: [0, 1, 127, 128, 300, 16_383, 16_384, 70_000])
    func bodyWrittenInPlaceGetsItsLengthInFront(length: Int) {
        let body = (0..<length).map { UInt8($0 % 128) }
        var writer = ProtobufWriter()
        writer.writeVarint(0x55)
        writer.writeLengthDelimited { inner in
            for byte in body { inner.writeVarint(UInt64(byte)) }
        }
        var expected = ProtobufWriter()
        expected.writeVarint(0x55)
        expected.writeLengthDelimited(body)
        #expect(writer.bytes == expected.bytes)
    }
}
