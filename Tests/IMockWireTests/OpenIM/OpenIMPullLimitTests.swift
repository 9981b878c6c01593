import IMockCommon
import IMockCore
import IMockTestSupport
import Testing

@testable import IMockWire

/// The limits of one gateway frame, driven through the dialect as the hub calls it: the gzip
/// limit of a frame as the dialect decodes it (docs/PROTOCOL-OPENIM.md). Every assertion is on
/// what is answered and counted, none on time.
@Suite("OpenIM gateway limits")
struct OpenIMPullLimitTests {
    /// A connection of `amy` whose login delivered `offline` (gob frames, gzip when asked).
    struct Connection {
        var dialect = OpenIMGatewayDialect()
        let codec: OpenIMFrameCodec
        var requests = 0

        init(gzip: Bool = false, offline: [ChatMessage]) {
            var query = [("sendID", "amy"), ("token", "t"), ("platformID", "1"), ("operationID", "o"), ("isBackground", "false")]
            if gzip { query.append(("compression", "gzip")) }
            codec = OpenIMFrameCodec(encoding: .gob, gzip: gzip)
            _ = dialect.login(forUpgrade: OpenIMGatewayTests.request(query))
            _ = dialect.encode(push: .offlineStart(count: offline.count))
            for message in offline { _ = dialect.encode(push: .message(message)) }
            _ = dialect.encode(push: .offlineFinish)
        }

        /// What the dialect makes of one binary message.
        mutating func decode(_ bytes: [UInt8]) -> [DialectInput] { dialect.decode(.binary(bytes)) }
    }

    // MARK: gzip

    /// A 1001 request whose gob encoding is exactly `size` bytes (its data is zeros: a gzip bomb).
    static func newestSeqRequest(encodedSize size: Int) throws -> [UInt8] {
        func encoded(_ dataCount: Int) -> [UInt8] {
            GobEncoder.encodeMessage(
                OpenIMGeneralWsReq(reqIdentifier: 1001, sendID: "amy", msgIncr: "big", data: [UInt8](repeating: 0, count: dataCount)))
        }
        let overhead = encoded(size / 2).count - size / 2
        let frame = encoded(size - overhead)
        try #require(frame.count == size)
        return frame
    }

    @Test("the dialect refuses a gzip frame that inflates past 1 MiB (1,048,576 bytes) with close 1007, and serves one of exactly 1 MiB")
    func gzipBombThroughTheDialect() throws {
        var connection = Connection(gzip: true, offline: [])
        let limit = 1 << 20
        let over = Gzip.compress(try Self.newestSeqRequest(encodedSize: limit + 1))
        #expect(over.count < 4096, "a bomb: \(over.count) bytes on the wire")
        #expect(connection.decode(over) == [.close(WireClose(code: 1007, reason: "gzip: output exceeds 1048576 bytes"))])
        let atLimit = connection.decode(Gzip.compress(try Self.newestSeqRequest(encodedSize: limit)))
        guard case .reply(.binary(let bytes))? = atLimit.first, atLimit.count == 1 else {
            Issue.record("a frame of exactly the limit is not answered: \(atLimit)")
            return
        }
        let reply = try connection.codec.decodeResponse(bytes)
        #expect(reply.reqIdentifier == 1001 && reply.msgIncr == "big" && reply.errCode == 0)
    }
}
