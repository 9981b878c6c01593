/// The request the OpenIM SDKs send to the message gateway (openim-sdk-core `GeneralWsReq`;
/// the server's `Req`), gob-encoded and usually gzip-compressed in a binary WebSocket message.
public struct OpenIMGeneralWsReq: GobCodable, Equatable {
    /// The operation: 1001 GetNewestSeq, 1003 SendMsg, 2003 Logout …
    public var reqIdentifier = 0
    /// The user's token (may be empty after login).
    public var token = ""
    /// The sending user; must be the connection's user.
    public var sendID = ""
    /// The client's operation id, echoed in the response.
    public var operationID = ""
    /// The client's request id, echoed in the response so the client can match it.
    public var msgIncr = ""
    /// The protobuf request.
    public var data: [UInt8] = []

    /// The zero request.
    public init() {}

    /// A request; every field defaults to its zero value.
    public init(
        reqIdentifier: Int = 0, token: String = "", sendID: String = "", operationID: String = "",
        msgIncr: String = "", data: [UInt8] = []
    ) {
        self.reqIdentifier = reqIdentifier
        self.token = token
        self.sendID = sendID
        self.operationID = operationID
        self.msgIncr = msgIncr
        self.data = data
    }

    /// The Go declaration, field order included.
    public static let gobStruct = GobStruct<Self>(name: "GeneralWsReq", fields: [
        .int("ReqIdentifier", \.reqIdentifier), .string("Token", \.token), .string("SendID", \.sendID),
        .string("OperationID", \.operationID), .string("MsgIncr", \.msgIncr), .bytes("Data", \.data),
    ])

    /// ``gobStruct``'s fields, written directly (a request a message: the hot path).
    public func encodeGobFields(to writer: inout GobFieldWriter) {
        writer.int(0, reqIdentifier)
        writer.string(1, token)
        writer.string(2, sendID)
        writer.string(3, operationID)
        writer.string(4, msgIncr)
        writer.bytes(5, data)
    }

    /// ``gobStruct``'s fields, read directly.
    public mutating func decodeGobField(_ index: Int, from reader: inout GobReader) throws(GobError) {
        switch index {
        case 0: reqIdentifier = try reader.intField()
        case 1: token = try reader.stringField()
        case 2: sendID = try reader.stringField()
        case 3: operationID = try reader.stringField()
        case 4: msgIncr = try reader.stringField()
        default: data = try reader.bytesField()
        }
    }
}

/// The gateway's response and push (open-im-server msggateway `Resp`).
public struct OpenIMResp: GobCodable, Equatable {
    /// The request's operation, echoed; 2001 for a push, 2002 for a kick.
    public var reqIdentifier = 0
    /// The request's `MsgIncr`, echoed (empty in pushes).
    public var msgIncr = ""
    /// The request's `OperationID`, echoed.
    public var operationID = ""
    /// 0 on success, else an OpenIM error code.
    public var errCode = 0
    /// The error text.
    public var errMsg = ""
    /// The protobuf response.
    public var data: [UInt8] = []

    /// The zero response.
    public init() {}

    /// A response; every field defaults to its zero value.
    public init(
        reqIdentifier: Int = 0, msgIncr: String = "", operationID: String = "", errCode: Int = 0,
        errMsg: String = "", data: [UInt8] = []
    ) {
        self.reqIdentifier = reqIdentifier
        self.msgIncr = msgIncr
        self.operationID = operationID
        self.errCode = errCode
        self.errMsg = errMsg
        self.data = data
    }

    /// The Go declaration, field order included.
    public static let gobStruct = GobStruct<Self>(name: "Resp", fields: [
        .int("ReqIdentifier", \.reqIdentifier), .string("MsgIncr", \.msgIncr), .string("OperationID", \.operationID),
        .int("ErrCode", \.errCode), .string("ErrMsg", \.errMsg), .bytes("Data", \.data),
    ])

    /// ``gobStruct``'s fields, written directly (a reply or push a frame: the hot path).
    public func encodeGobFields(to writer: inout GobFieldWriter) {
        writer.int(0, reqIdentifier)
        writer.string(1, msgIncr)
        writer.string(2, operationID)
        writer.int(3, errCode)
        writer.string(4, errMsg)
        writer.bytes(5, data)
    }

    /// ``gobStruct``'s fields, read directly.
    public mutating func decodeGobField(_ index: Int, from reader: inout GobReader) throws(GobError) {
        switch index {
        case 0: reqIdentifier = try reader.intField()
        case 1: msgIncr = try reader.stringField()
        case 2: operationID = try reader.stringField()
        case 3: errCode = try reader.intField()
        case 4: errMsg = try reader.stringField()
        default: data = try reader.bytesField()
        }
    }
}
