import IMockCommon
import IMockCore

/// The gateway's binary frames: a ``OpenIMGeneralWsReq`` or ``OpenIMResp`` encoded with gob
/// (Go SDK, a fresh encoder per frame) or JSON (`sdkType=js`, Go's `encoding/json` with its
/// field tags and `[]byte` as base64), then gzip-compressed when the handshake asked for it
/// (msggateway `encoder.go`, `compressor.go`). Both directions, for the server's dialect and
/// for the reference client.
public struct OpenIMFrameCodec: Sendable, Equatable {
    /// gob or JSON.
    public var encoding: OpenIMHandshake.Encoding
    /// Whether frames are gzip-compressed.
    public var gzip: Bool

    /// The largest frame accepted once decompressed (the gateway's own read limit is 51,200
    /// bytes of WebSocket message).
    public static let maximumFrameBytes = 1 << 20

    /// A codec.
    public init(encoding: OpenIMHandshake.Encoding, gzip: Bool) {
        self.encoding = encoding
        self.gzip = gzip
    }

    // MARK: Server side

    /// A response or push as the binary message the server sends.
    public func encode(_ response: OpenIMResp) -> [UInt8] { encode(response, json: Self.json) }

    /// A request from a binary message; the error says what is wrong with it.
    public func decodeRequest(_ bytes: [UInt8]) throws(OpenIMFrameError) -> OpenIMGeneralWsReq {
        try decode(bytes, json: Self.request(fromJSON:))
    }

    // MARK: Client side

    /// A request as the binary message a client sends.
    public func encode(_ request: OpenIMGeneralWsReq) -> [UInt8] { encode(request, json: Self.json) }

    /// A response or push from a binary message.
    public func decodeResponse(_ bytes: [UInt8]) throws(OpenIMFrameError) -> OpenIMResp {
        try decode(bytes, json: Self.response(fromJSON:))
    }

    // MARK: Parts

    /// `value` in this codec's encoding, compressed when asked.
    private func encode<Value: GobCodable>(_ value: Value, json: (Value) -> JSONValue) -> [UInt8] {
        if encoding == .gob, gzip {
            // Every frame of the Go SDK: the gob written in place inside its gzip member.
            let capacity = Value.gobStruct.firstTypeDefinition.count + Self.expectedValueLength
            return Gzip.compress(storedBelow: Self.smallestDeflatedFrame, capacity: capacity) { out in
                GobEncoder.encodeMessage(value, appendingTo: &out)
            }
        }
        let body: [UInt8] =
            switch encoding {
            case .gob: GobEncoder.encodeMessage(value)
            case .json: json(value).encoded()
            }
        guard gzip else { return body }
        return Gzip.compress(body, level: body.count < Self.smallestDeflatedFrame ? .stored : .standard)
    }

    /// Frames shorter than this (most: replies, pushes, one message) are gzip members of stored
    /// blocks; longer ones (a pull's page of messages) are deflated at zlib's default level.
    /// Every gzip reader takes both; deflating a 200-byte frame saved ~60 bytes for ~15 times
    /// the instructions (docs/BENCHMARKS.md).
    public static let smallestDeflatedFrame = 1024

    /// Room for a frame's value beyond its gob type definition: a reply, a push of a message.
    private static let expectedValueLength = 320

    /// A value of this codec's encoding from a message, decompressed when asked.
    private func decode<Value: GobCodable>(
        _ bytes: [UInt8], json: ([UInt8]) throws(OpenIMFrameError) -> Value
    ) throws(OpenIMFrameError) -> Value {
        let body = try decompressed(bytes)
        switch encoding {
        case .gob:
            do {
                return try GobDecoder.decodeMessage(Value.self, from: body)
            } catch {
                throw .gob(error)
            }
        case .json:
            return try json(body)
        }
    }

    private func decompressed(_ bytes: [UInt8]) throws(OpenIMFrameError) -> [UInt8] {
        guard gzip else { return bytes }
        do {
            return try Gzip.decompress(bytes, limit: Self.maximumFrameBytes)
        } catch {
            throw .gzip(error)
        }
    }

    /// Go's JSON of `Resp`: its tags, in declaration order; empty `data` is `null`.
    static func json(_ response: OpenIMResp) -> JSONValue {
        .object([
            ("reqIdentifier", .int(Int64(response.reqIdentifier))), ("msgIncr", .string(response.msgIncr)),
            ("operationID", .string(response.operationID)), ("errCode", .int(Int64(response.errCode))),
            ("errMsg", .string(response.errMsg)), ("data", dataJSON(response.data)),
        ])
    }

    /// Go's JSON of `Req`.
    static func json(_ request: OpenIMGeneralWsReq) -> JSONValue {
        .object([
            ("reqIdentifier", .int(Int64(request.reqIdentifier))), ("token", .string(request.token)),
            ("sendID", .string(request.sendID)), ("operationID", .string(request.operationID)),
            ("msgIncr", .string(request.msgIncr)), ("data", dataJSON(request.data)),
        ])
    }

    private static func dataJSON(_ data: [UInt8]) -> JSONValue { data.isEmpty ? .null : .string(Base64.encode(data)) }

    static func request(fromJSON body: [UInt8]) throws(OpenIMFrameError) -> OpenIMGeneralWsReq {
        let reader = try reader(body)
        do {
            return OpenIMGeneralWsReq(
                reqIdentifier: Int(try reader.int("reqIdentifier", in: Int64(Int32.min)...Int64(Int32.max)) ?? 0),
                token: try reader.string("token") ?? "", sendID: try reader.string("sendID") ?? "",
                operationID: try reader.string("operationID") ?? "", msgIncr: try reader.string("msgIncr") ?? "",
                data: try data(reader))
        } catch {
            throw .json(error.sentence)
        }
    }

    static func response(fromJSON body: [UInt8]) throws(OpenIMFrameError) -> OpenIMResp {
        let reader = try reader(body)
        do {
            return OpenIMResp(
                reqIdentifier: Int(try reader.int("reqIdentifier") ?? 0), msgIncr: try reader.string("msgIncr") ?? "",
                operationID: try reader.string("operationID") ?? "", errCode: Int(try reader.int("errCode") ?? 0),
                errMsg: try reader.string("errMsg") ?? "", data: try data(reader))
        } catch {
            throw .json(error.sentence)
        }
    }

    private static func reader(_ body: [UInt8]) throws(OpenIMFrameError) -> JSONObjectReader {
        do {
            return try JSONObjectReader(try JSONValue.parse(body))
        } catch let error as JSONFieldError {
            throw .json(error.sentence)
        } catch {
            throw .json("not JSON")
        }
    }

    /// `data`: base64 (Go's `[]byte`), or null / absent for none.
    private static func data(_ reader: JSONObjectReader) throws(JSONFieldError) -> [UInt8] {
        guard let text = try reader.string("data") else { return [] }
        guard let bytes = Base64.decode(text) else { throw reader.invalid("data", "must be base64") }
        return bytes
    }
}

/// Why a binary message is not a gateway frame.
public enum OpenIMFrameError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The handshake asked for gzip and this is not gzip.
    case gzip(GzipError)
    /// Not the gob of the struct.
    case gob(GobError)
    /// Not the JSON of the struct: why.
    case json(String)

    /// One line, for the close reason.
    public var description: String {
        switch self {
        case .gzip(let error): "\(error)"
        case .gob(let error): "gob: \(error)"
        case .json(let reason): "json: \(reason)"
        }
    }
}
