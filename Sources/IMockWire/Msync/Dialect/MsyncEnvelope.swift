import IMockCommon

/// How msync envelopes travel on a WebSocket: one ``MsyncPB/MSync`` per binary message (the
/// mini-program, uniApp and miniCore builds), or its base64 in a text message (the Alipay and
/// DingTalk mini-program builds, and inside SockJS frames). A reply goes back the way the
/// request came.
public enum MsyncFraming: Sendable, Equatable {
    /// One binary message per envelope.
    case binary
    /// The envelope's standard base64 in one text message.
    case base64Text
}

/// Reading and writing one ``MsyncPB/MSync`` envelope.
public enum MsyncEnvelope {
    /// The largest envelope read, in bytes (the protobuf reader's bound as well).
    public static let maximumSize = ProtobufLimits.defaultMaximumMessageSize

    /// The envelope in `message` and how it came.
    /// - Throws: ``MsyncWireError`` for text that is not base64 or bytes that are not an `MSync`.
    public static func read(_ message: WireMessage) throws(MsyncWireError) -> (MsyncPB.MSync, MsyncFraming) {
        let (bytes, framing) = try envelopeBytes(message)
        return (try decode(bytes), framing)
    }

    /// The bytes of the envelope in `message` (a text message's base64 decoded) and how it came.
    /// - Throws: ``MsyncWireError/notBase64`` for text that is not base64 (or too long).
    public static func envelopeBytes(_ message: WireMessage) throws(MsyncWireError) -> ([UInt8], MsyncFraming) {
        switch message {
        case .binary(let bytes):
            return (bytes, .binary)
        case .text(let text):
            guard text.utf8.count <= maximumSize / 3 * 4 + 4, let bytes = Base64.decode(text) else {
                throw .notBase64
            }
            return (bytes, .base64Text)
        }
    }

    /// Decodes an envelope from untrusted bytes.
    public static func decode(_ bytes: [UInt8]) throws(MsyncWireError) -> MsyncPB.MSync {
        do {
            return try MsyncPB.MSync(protobufBytes: bytes)
        } catch {
            throw .protobuf(error)
        }
    }

    /// The command of the envelope in `bytes` and a reader of its payload in place (the bytes
    /// ``MsyncPB/MSync/decodePayload(as:)`` would decode, at the same depth), for an envelope
    /// of `version`, `command` and `payload` alone — the server's frames. Nil for any other
    /// field the schema knows, no payload, or malformed bytes: decode those with ``read(_:)``.
    public static func payloadInPlace(_ bytes: [UInt8]) -> (MsyncPB.MSync.Command, ProtobufReader)? {
        do throws(ProtobufError) {
            var envelope = try ProtobufReader(bytes)
            var command = MsyncPB.MSync.Command.sync
            var payload: ProtobufReader?
            while let field = try envelope.nextField() {
                switch field.number {
                case 1: _ = try envelope.read(MsyncPB.MSync.Version.self)
                case 8: command = try envelope.read(MsyncPB.MSync.Command.self)
                case 9: payload = try envelope.inPlaceValue()
                case 2...7, 10...12: return nil
                default: break
                }
            }
            return payload.map { (command, $0) }
        } catch {
            return nil
        }
    }

    /// `msync` as a message of `framing`.
    public static func message(_ msync: MsyncPB.MSync, framing: MsyncFraming) -> WireMessage {
        message(bytes: msync.protobufBytes(), framing: framing)
    }

    /// `MSync{version, command, payload}` as a message of `framing`.
    public static func message(
        version: MsyncPB.MSync.Version? = nil, command: MsyncPB.MSync.Command, payload: some ProtobufMessage,
        framing: MsyncFraming
    ) -> WireMessage {
        message(bytes: bytes(version: version, command: command, payload: payload), framing: framing)
    }

    /// The bytes of `MSync{version, command, payload}` — those of
    /// `MSync(command:payload:)` with `version` set — with the payload written in place
    /// instead of encoded into an array of its own and copied in.
    public static func bytes(
        version: MsyncPB.MSync.Version? = nil, command: MsyncPB.MSync.Command, payload: some ProtobufMessage
    ) -> [UInt8] {
        bytes(version: version, command: command) { payload.encode(to: &$0) }
    }

    /// The bytes of `MSync{version, command, payload}` whose payload's fields `writePayload`
    /// writes (in field-number order), in place: for payloads built straight from what they
    /// carry rather than from a message value (a page of metas, say).
    public static func bytes(
        version: MsyncPB.MSync.Version? = nil, command: MsyncPB.MSync.Command,
        writingPayload writePayload: (inout ProtobufWriter) -> Void
    ) -> [UInt8] {
        // Room for a reply or a page of one message, so the buffer is not grown from empty.
        var writer = ProtobufWriter(capacity: 256)
        writer.write(version, as: MsyncPB.MSync.Version.self, field: 1)
        writer.write(command, as: MsyncPB.MSync.Command.self, field: 8)
        writer.writeTag(field: 9, wireType: .lengthDelimited)
        writer.writeLengthDelimited(writePayload)
        return writer.bytes
    }

    /// `MSync{command, payload}` as a message of `framing`, the payload's fields written by
    /// `writePayload` (``bytes(version:command:writingPayload:)``).
    public static func message(
        command: MsyncPB.MSync.Command, framing: MsyncFraming, writingPayload writePayload: (inout ProtobufWriter) -> Void
    ) -> WireMessage {
        message(bytes: bytes(command: command, writingPayload: writePayload), framing: framing)
    }

    private static func message(bytes: [UInt8], framing: MsyncFraming) -> WireMessage {
        switch framing {
        case .binary: return .binary(bytes)
        case .base64Text: return .text(Base64.encode(bytes))
        }
    }
}

/// Why an incoming msync message could not be read.
public enum MsyncWireError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A text message that is not standard base64 (or is too long to be an envelope).
    case notBase64
    /// The bytes are not a valid `MSync`, or a payload is not valid for its command.
    case protobuf(ProtobufError)

    /// One line for close reasons and logs.
    public var description: String {
        switch self {
        case .notBase64: "msync: a text message must be the base64 of an MSync envelope"
        case .protobuf(let error): "msync: \(error)"
        }
    }
}
