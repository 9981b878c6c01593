import Testing

@testable import IMockNet

@Suite("WebSocket frame encoder and parser")
struct WebSocketFrameCodecTests {
    static let hello: [UInt8] = Array("Hello".utf8)

    // MARK: RFC 6455 §5.7 examples

    @Test("Single-frame unmasked text 'Hello'")
    func rfcUnmaskedHello() throws {
        let wire: [UInt8] = [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]
        #expect(WebSocketFrameEncoder.encode(opcode: .text, payload: Self.hello) == wire)
        let frames = try WS.parseAll(wire, role: .client)
        #expect(frames == [WebSocketFrame(opcode: .text, payload: Self.hello)])
    }

    @Test("Single-frame masked text 'Hello' with key 37 fa 21 3d")
    func rfcMaskedHello() throws {
        let wire: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        #expect(WebSocketFrameEncoder.encode(opcode: .text, payload: Self.hello, maskingKey: WS.rfcKey) == wire)
        let frames = try WS.parseAll(wire, role: .server)
        #expect(frames == [WebSocketFrame(opcode: .text, maskingKey: WS.rfcKey, payload: Self.hello)])
    }

    @Test("Fragmented unmasked text 'Hel' + 'lo'")
    func rfcFragmented() throws {
        let first: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6C]
        let second: [UInt8] = [0x80, 0x02, 0x6C, 0x6F]
        #expect(WebSocketFrameEncoder.encode(opcode: .text, payload: Array("Hel".utf8), fin: false) == first)
        #expect(WebSocketFrameEncoder.encode(opcode: .continuation, payload: Array("lo".utf8)) == second)
        let frames = try WS.parseAll(first + second, role: .client)
        #expect(
            frames == [
                WebSocketFrame(fin: false, opcode: .text, payload: Array("Hel".utf8)),
                WebSocketFrame(opcode: .continuation, payload: Array("lo".utf8)),
            ])
    }

    @Test("Unmasked ping 'Hello' and masked pong 'Hello'")
    func rfcPingPong() throws {
        let ping: [UInt8] = [0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]
        let pong: [UInt8] = [0x8A, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        #expect(WebSocketFrameEncoder.encode(opcode: .ping, payload: Self.hello) == ping)
        #expect(WebSocketFrameEncoder.encode(opcode: .pong, payload: Self.hello, maskingKey: WS.rfcKey) == pong)
        #expect(try WS.parseAll(ping, role: .client) == [WebSocketFrame(opcode: .ping, payload: Self.hello)])
        #expect(
            try WS.parseAll(pong, role: .server)
                == [WebSocketFrame(opcode: .pong, maskingKey: WS.rfcKey, payload: Self.hello)])
    }

    @Test("256-byte binary uses a 16-bit length: 82 7E 01 00")
    func rfc256Bytes() throws {
        let payload = WS.payload(256)
        let wire = WebSocketFrameEncoder.encode(opcode: .binary, payload: payload)
        #expect(Array(wire.prefix(4)) == [0x82, 0x7E, 0x01, 0x00])
        #expect(wire.count == 4 + 256)
        #expect(try WS.parseAll(wire, role: .client) == [WebSocketFrame(opcode: .binary, payload: payload)])
    }

    @Test("64 KiB binary uses a 64-bit length: 82 7F 00 00 00 00 00 01 00 00")
    func rfc64KiB() throws {
        let payload = WS.payload(65536)
        let wire = WebSocketFrameEncoder.encode(opcode: .binary, payload: payload)
        #expect(Array(wire.prefix(10)) == [0x82, 0x7F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00])
        #expect(wire.count == 10 + 65536)
        #expect(try WS.parseAll(wire, role: .client) == [WebSocketFrame(opcode: .binary, payload: payload)])
    }

    // MARK: Round-trips

    @Test("Round-trip and exact header for each length encoding", arguments: [0, 1, 7, 8, 9, 125, 126, 127, 65535, 65536, 70000])
    func roundTrip(length: Int) throws {
        let payload = WS.payload(length)
        let unmasked = WebSocketFrameEncoder.encode(opcode: .binary, payload: payload)
        #expect(unmasked == WS.serverFrame(0x2, payload))
        #expect(try WS.parseAll(unmasked, role: .client) == [WebSocketFrame(opcode: .binary, payload: payload)])

        let key: [UInt8] = [0xA1, 0xB2, 0xC3, 0xD4]
        let masked = WebSocketFrameEncoder.encode(opcode: .binary, payload: payload, maskingKey: 0xA1B2_C3D4)
        #expect(masked == WS.clientFrame(0x2, payload, key: key))
        #expect(
            try WS.parseAll(masked, role: .server)
                == [WebSocketFrame(opcode: .binary, maskingKey: 0xA1B2_C3D4, payload: payload)])
    }

    @Test("Encoding a WebSocketFrame value keeps FIN and the reserved bits")
    func encodeFrameValue() {
        let frame = WebSocketFrame(fin: false, rsv1: true, rsv2: false, rsv3: true, opcode: .binary, payload: [9])
        #expect(WebSocketFrameEncoder.encode(frame) == [0x52, 0x01, 0x09])
    }

    @Test("Masking works for every length around the 8-byte stride", arguments: Array(0...33))
    func maskingMatchesReference(length: Int) {
        let key: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        var bytes = WS.payload(length)
        let expected = WS.mask(bytes, key: key)
        WebSocketMasking.apply(key: WS.rfcKey, to: &bytes)
        #expect(bytes == expected)
    }

    // MARK: Incremental feeding

    @Test("Feeding byte by byte gives the same frames as all at once", arguments: [WebSocketRole.server, .client])
    func byteAtATime(role: WebSocketRole) throws {
        let peerMasks = role == .server
        let frames: [[UInt8]] = [
            WebSocketFrameEncoder.encode(opcode: .text, payload: Self.hello, fin: false, maskingKey: peerMasks ? 1 : nil),
            WebSocketFrameEncoder.encode(opcode: .ping, payload: [1, 2], maskingKey: peerMasks ? 2 : nil),
            WebSocketFrameEncoder.encode(opcode: .continuation, payload: WS.payload(300), maskingKey: peerMasks ? 3 : nil),
            WebSocketFrameEncoder.encode(opcode: .binary, payload: WS.payload(70000), maskingKey: peerMasks ? 4 : nil),
            WebSocketFrameEncoder.encode(opcode: .close, payload: [], maskingKey: peerMasks ? 5 : nil),
        ]
        let wire = frames.flatMap { $0 }
        let allAtOnce = try WS.parseAll(wire, role: role)
        #expect(allAtOnce.count == 5)

        var parser = WebSocketFrameParser(role: role, maxFrameSize: 1 << 20)
        var oneByOne: [WebSocketFrame] = []
        for byte in wire {
            parser.feed(CollectionOfOne(byte))
            while let frame = try parser.next() { oneByOne.append(frame) }
        }
        #expect(oneByOne == allAtOnce)
        #expect(parser.bufferedByteCount == 0)
    }

    @Test("A partial frame returns nil and keeps its bytes")
    func partialFrame() throws {
        var parser = WebSocketFrameParser(role: .client, maxFrameSize: 100)
        parser.feed([0x81, 0x05, 0x48])
        #expect(try parser.next() == nil)
        #expect(parser.bufferedByteCount == 3)
        parser.feed([0x65, 0x6C, 0x6C, 0x6F, 0x89])
        #expect(try parser.next() == WebSocketFrame(opcode: .text, payload: Self.hello))
        #expect(try parser.next() == nil)
        #expect(parser.bufferedByteCount == 1)
    }
}
