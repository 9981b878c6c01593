// Fuzz target `websocket`: IMockNet's WebSocket frame parser and the connection state machine,
// in both roles, over arbitrary received bytes.
//
// Properties (a violation traps):
// - The parser returns the same frames and error whole and split; each frame it returns
//   encodes back to exactly the bytes it was read from (lengths are minimal, bits reserved).
// - The state machine returns the same actions whole and split.
// - With local sends, closes and a transport drop interleaved: `.closed` is emitted exactly
//   once (by the end), `.closeTransport` at most once, nothing but `.closeTransport` after
//   `.closed`; `isClosed` tells whether `.closed` was emitted; received messages respect the
//   message limit; and every byte the machine writes is accepted by a peer state machine of the
//   other role without a protocol error, which receives exactly the messages sent while open.
// - Never a trap, never an out-of-bounds access (ASan).

import IMockNet

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocket(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzBytes(data, size)
    var choices = InputDerivedChoices(input)
    for role in [WebSocketRole.server, .client] {
        let maxFrameSize = choices.pick([1 << 20, 125, 1000])
        let maxMessageSize = choices.pick([1 << 20, 200, 0])
        let pieces = choices.split(input, maximum: choices.pick([1, 5, 64]))
        checkFrameParser(input, pieces: pieces, role: role, maxFrameSize: maxFrameSize)
        let machine = {
            WebSocketStateMachine(
                role: role, maxFrameSize: maxFrameSize, maxMessageSize: maxMessageSize,
                maskingKeyGenerator: { [0x37, 0xFA, 0x21, 0x3D] })
        }
        var whole = machine()
        var split = machine()
        let wholeActions = whole.receive(input)
        let splitActions = pieces.flatMap { split.receive($0) }
        check(wholeActions == splitActions, "\(role) actions differ whole and split: \(wholeActions) vs \(splitActions)")
        var driven = DrivenMachine(machine(), maxMessageSize: maxMessageSize)
        driven.run(pieces, choices: &choices)
    }
    return 0
}

/// Parses `input` whole and as `pieces` and checks both give the same frames, each of which
/// re-encodes to its own bytes.
private func checkFrameParser(_ input: [UInt8], pieces: [ArraySlice<UInt8>], role: WebSocketRole, maxFrameSize: Int) {
    let whole = parseFrames([input[...]], role: role, maxFrameSize: maxFrameSize)
    let split = parseFrames(pieces, role: role, maxFrameSize: maxFrameSize)
    check(whole.frames == split.frames && whole.error == split.error, "\(role) frames differ whole and split")
    let encoded = whole.frames.flatMap { WebSocketFrameEncoder.encode($0) }
    check(input.starts(with: encoded), "\(role) frames do not re-encode to their input bytes")
    if whole.error == nil {
        check(encoded.count + whole.buffered == input.count, "\(role) parser lost bytes")
    }
}

private func parseFrames(_ pieces: [ArraySlice<UInt8>], role: WebSocketRole, maxFrameSize: Int)
    -> (frames: [WebSocketFrame], error: WebSocketProtocolError?, buffered: Int)
{
    var parser = WebSocketFrameParser(role: role, maxFrameSize: maxFrameSize)
    var frames: [WebSocketFrame] = []
    for piece in pieces {
        parser.feed(piece)
        do {
            while let frame = try parser.next() {
                check(frame.payload.count <= maxFrameSize, "frame of \(frame.payload.count) bytes over the limit")
                frames.append(frame)
            }
        } catch {
            check((try? parser.next()) == nil, "a failed parser returned a frame")
            return (frames, error, parser.bufferedByteCount)
        }
    }
    return (frames, nil, parser.bufferedByteCount)
}

/// A state machine receiving the input in pieces, with local calls between the pieces, whose
/// every action is checked as it comes out.
private struct DrivenMachine {
    var machine: WebSocketStateMachine
    /// The other end, fed every byte this machine writes.
    var peer: WebSocketStateMachine
    let maxMessageSize: Int
    /// The messages this machine was asked to send while it could, and those the peer received.
    var sent: [WebSocketAction] = []
    var delivered: [WebSocketAction] = []
    var closedCount = 0
    var closeTransportCount = 0

    init(_ machine: WebSocketStateMachine, maxMessageSize: Int) {
        self.machine = machine
        self.maxMessageSize = maxMessageSize
        let peerRole: WebSocketRole = machine.role == .server ? .client : .server
        peer = WebSocketStateMachine(role: peerRole, maskingKeyGenerator: { [1, 2, 3, 4] })
    }

    mutating func run(_ pieces: [ArraySlice<UInt8>], choices: inout InputDerivedChoices) {
        for piece in pieces {
            observe(machine.receive(piece))
            switch choices.below(16) {
            case 0:
                let text = choices.pick(["", "hello", "é😀"])
                if machine.isOpen { sent.append(.text(text)) }
                observe(machine.sendText(text))
            case 1:
                if machine.isOpen { sent.append(.binary([0x00, 0xFF])) }
                observe(machine.sendBinary([0x00, 0xFF]))
            case 2: observe(machine.sendPing(Array(repeating: 0x70, count: choices.pick([0, 125, 200]))))
            case 3: observe(machine.sendPong([0x01]))
            case 4:
                let code = WebSocketCloseCode(choices.pick([1000, 1001, 1005, 1006, 1015, 3000, 4206, 4999, 999, 5000, 0, 65535]))
                let reason = choices.pick(["", "bye", String(repeating: "é", count: 70), String(repeating: "😀", count: 40)])
                observe(machine.close(code: code, reason: reason))
            case 5: observe(machine.transportClosed())
            default: break
            }
        }
        observe(machine.transportClosed())
        check(closedCount == 1, "\(machine.role): .closed emitted \(closedCount) times by the end")
        check(delivered == sent, "\(machine.role) sent \(sent), its peer received \(delivered)")
    }

    private mutating func observe(_ actions: [WebSocketAction]) {
        for action in actions {
            check(closedCount == 0 || action == .closeTransport, "\(machine.role): \(action) after .closed")
            switch action {
            case .write(let bytes):
                for reply in peer.receive(bytes) {
                    switch reply {
                    case .text, .binary: delivered.append(reply)
                    case .closed(let code, let reason, initiatedLocally: true):
                        check(false, "\(machine.role) wrote bytes its peer refuses: \(code.rawValue) \(reason)")
                    default: break
                    }
                }
            case .text(let text):
                check(text.utf8.count <= maxMessageSize, "text message over the limit")
            case .binary(let bytes):
                check(bytes.count <= maxMessageSize, "binary message over the limit")
            case .ping(let payload), .pong(let payload):
                check(payload.count <= 125, "control payload over 125 bytes")
            case .closeTransport:
                closeTransportCount += 1
                check(closeTransportCount == 1, "\(machine.role): .closeTransport emitted twice")
            case .closed:
                closedCount += 1
            }
        }
        check(machine.isClosed == (closedCount == 1), "\(machine.role): isClosed disagrees with the actions")
    }
}
