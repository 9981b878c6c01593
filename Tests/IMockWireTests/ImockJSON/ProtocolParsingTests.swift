import Testing

@testable import IMockCore
import IMockWire

@Suite("Protocol frames")
struct ProtocolParsingTests {
    static let device = #""device":{"os":"ios","name":"iPhone","uuid":"u1"}"#
    static let login = #"{"op":"login","id":"1","appKey":"acme#chat","user":"alice","token":"t","# + device + "}"

    @Test func parsesEveryClientOp() throws {
        #expect(try ClientFrameParser.parse(#"{"op":"ping"}"#) == .ping(id: nil))
        #expect(try ClientFrameParser.parse(#"{"op":"ping","id":"p"}"#) == .ping(id: "p"))
        #expect(try ClientFrameParser.parse(#"{"op":"renewToken","id":"r","token":"x"}"#) == .renewToken(id: "r", token: "x"))
        #expect(try ClientFrameParser.parse(#"{"op":"logout","id":"o"}"#) == .logout(id: "o", unbindDeviceToken: false))
        #expect(
            try ClientFrameParser.parse(#"{"op":"logout","id":"o","unbindDeviceToken":true}"#)
                == .logout(id: "o", unbindDeviceToken: true))
        #expect(try ClientFrameParser.parse(#"{"op":"devices","id":"d"}"#) == .devices(id: "d"))
        #expect(try ClientFrameParser.parse(#"{"op":"send","id":"s","to":"bob","text":"hi"}"#) == .send(id: "s", to: "bob", text: "hi"))
        #expect(try ClientFrameParser.parse(#"{"op":"ack","id":"a","messageId":"7"}"#) == .ack(id: "a", messageId: "7"))
    }

    @Test func parsesALoginWithEveryDeviceField() throws {
        let text = #"{"op":"login","id":"1","appKey":"acme#chat","user":"Alice","token":"t","autoLogin":true,"#
            + #""sync":["contacts","conversations"],"device":{"customOSType":7,"name":"Car","uuid":"u","resource":"car_1","extension":"ext"}}"#
        let frame = try ClientFrameParser.parse(text)
        let device = DeviceDescription(
            platform: .easemob(.custom(7)), name: "Car", uuid: "u", resource: "car_1", extensionInfo: "ext")
        #expect(
            frame
                == .login(
                    id: "1",
                    LoginRequest(
                        appKey: "acme#chat", user: "Alice", token: "t", device: device, autoLogin: true,
                        sync: [.contacts, .conversations])))
        let openIM = try ClientFrameParser.parse(
            #"{"op":"login","id":"1","appKey":"a#b","user":"u","token":"t","device":{"platformId":5,"uuid":"w"}}"#)
        guard case .login(_, let request) = openIM else { Issue.record("not a login"); return }
        #expect(request.device.platform == .openIM(.web))
    }

    static let malformed: [(String, FrameError)] = [
        ("", .invalidJSON(JSONParseError(reason: .unexpectedEnd, offset: 0))),
        ("{\"op\":", .invalidJSON(JSONParseError(reason: .unexpectedEnd, offset: 6))),
        ("[1]", .notAnObject),
        ("{}", .missingField("op")),
        (#"{"op":3}"#, .wrongType(field: "op", expected: "a string")),
        (#"{"op":"dance","id":"1"}"#, .unknownOp("dance")),
        (#"{"op":"devices"}"#, .missingField("id")),
        (#"{"op":"devices","id":5}"#, .wrongType(field: "id", expected: "a string")),
        (#"{"op":"devices","id":""}"#, .invalidValue(field: "id", reason: "must be 1 to 64 bytes")),
        (#"{"op":"renewToken","id":"1"}"#, .missingField("token")),
        (#"{"op":"logout","id":"1","unbindDeviceToken":"yes"}"#, .wrongType(field: "unbindDeviceToken", expected: "a boolean")),
        (#"{"op":"send","id":"1","to":"bob"}"#, .missingField("text")),
        (#"{"op":"send","id":"1","to":"bob","text":""}"#, .invalidValue(field: "text", reason: "must not be empty")),
        (#"{"op":"ack","id":"1","messageId":1}"#, .wrongType(field: "messageId", expected: "a string")),
        (#"{"op":"login","id":"1","user":"u","token":"t","device":{"os":"ios","uuid":"u"}}"#, .missingField("appKey")),
        (#"{"op":"login","id":"1","appKey":"a#b","user":"u","token":"t"}"#, .missingField("device")),
        (#"{"op":"login","id":"1","appKey":"a#b","user":"u","token":"t","device":[]}"#, .wrongType(field: "device", expected: "an object")),
        (#"{"op":"login","id":"1","appKey":"a#b","user":"u","token":"t","device":{"os":"ios"}}"#, .missingField("device.uuid")),
        (#"{"op":"login","id":"1","appKey":"a#b","user":"u","token":"t","device":{"uuid":"x"}}"#, .ambiguousPlatform),
        (#"{"op":"login","id":"1","appKey":"a#b","user":"u","token":"t","device":{"os":"ios","platformId":1,"uuid":"x"}}"#, .ambiguousPlatform),
        (#"{"op":"login","id":"1","appKey":"a#b","user":"u","token":"t","device":{"os":"beos","uuid":"x"}}"#,
         .badPlatform(field: "device.os", reason: "is not one of ios, android, windows, macos, web, linux")),
        (#"{"op":"login","id":"1","appKey":"a#b","user":"u","token":"t","device":{"customOSType":101,"uuid":"x"}}"#,
         .badPlatform(field: "device.customOSType", reason: "must be 1–100")),
        (#"{"op":"login","id":"1","appKey":"a#b","user":"u","token":"t","device":{"platformId":12,"uuid":"x"}}"#,
         .badPlatform(field: "device.platformId", reason: "must be 1–11")),
        (#"{"op":"login","id":"1","appKey":"a#b","user":"u","token":"t","device":{"os":"ios","uuid":"a/b"}}"#,
         .invalidValue(field: "device.uuid", reason: "must not contain /")),
        (#"{"op":"login","id":"1","appKey":"a#b","user":"u","token":"t","device":{"os":"ios","uuid":"x","name":1}}"#,
         .wrongType(field: "device.name", expected: "a string")),
        (#"{"op":"login","id":"1","appKey":"a#b","user":"u","token":"t","autoLogin":1,"device":{"os":"ios","uuid":"x"}}"#,
         .wrongType(field: "autoLogin", expected: "a boolean")),
        (#"{"op":"login","id":"1","appKey":"a#b","user":"u","token":"t","sync":["mail"],"device":{"os":"ios","uuid":"x"}}"#,
         .invalidValue(field: "sync[0]", reason: "is not one of conversations, contacts, joinedGroups")),
        (#"{"op":"login","id":"1","appKey":"a#b","user":"u","token":"t","sync":["contacts","contacts"],"device":{"os":"ios","uuid":"x"}}"#,
         .invalidValue(field: "sync[1]", reason: "repeats contacts")),
    ]

    @Test(arguments: malformed)
    func refusesMalformedFrames(text: String, expected: FrameError) {
        #expect(throws: expected) { try ClientFrameParser.parse(text) }
    }

    @Test func refusesAnExtensionOver1024Characters() {
        let ok = String(repeating: "é", count: 1024)
        let text = { (ext: String) in
            #"{"op":"login","id":"1","appKey":"a#b","user":"u","token":"t","device":{"os":"web","uuid":"x","extension":""#
                + ext + #""}}"#
        }
        #expect(throws: Never.self) { try ClientFrameParser.parse(text(ok)) }
        #expect(throws: FrameError.extensionTooLong(1025)) { try ClientFrameParser.parse(text(ok + "x")) }
        #expect(FrameError.extensionTooLong(1025).field == "device.extension")
    }

    @Test func encodesServerFramesExactly() {
        let cases: [(ServerFrame, String)] = [
            (.loginOK(id: "1", resource: "ios_u1", tokenExpiresAt: 5000, serverTime: 10),
             #"{"op":"login.ok","id":"1","resource":"ios_u1","tokenExpiresAt":5000,"serverTime":10}"#),
            (.loginOK(id: "1", resource: "r", tokenExpiresAt: nil, serverTime: 10),
             #"{"op":"login.ok","id":"1","resource":"r","tokenExpiresAt":null,"serverTime":10}"#),
            (.loginError(id: "1", code: 104, message: "invalid token"),
             #"{"op":"login.error","id":"1","code":104,"message":"invalid token"}"#),
            (.pong(id: nil, serverTime: 5), #"{"op":"pong","serverTime":5}"#),
            (.kicked(code: 206, reason: "r", by: KickedBy(deviceName: "Pad", extensionInfo: "e")),
             #"{"op":"kicked","code":206,"reason":"r","by":{"deviceName":"Pad","extension":"e"}}"#),
            (.kicked(code: 217, reason: "r", by: nil), #"{"op":"kicked","code":217,"reason":"r"}"#),
            (.tokenWillExpire(expiresAt: 9), #"{"op":"token.willExpire","expiresAt":9}"#),
            (.tokenExpired, #"{"op":"token.expired"}"#),
            (.offlineStart(count: 2), #"{"op":"offline.start","count":2}"#),
            (.offlineFinish, #"{"op":"offline.finish"}"#),
            (.syncStart(type: .contacts), #"{"op":"sync.start","type":"contacts"}"#),
            (.syncFinish(type: .joinedGroups, error: FrameErrorBody(code: 303, message: "m")),
             #"{"op":"sync.finish","type":"joinedGroups","error":{"code":303,"message":"m"}}"#),
            (.message(ChatMessage(messageId: "1", from: "a", to: "b", text: "hi", timestamp: 3)),
             #"{"op":"message","messageId":"1","from":"a","to":"b","text":"hi","timestamp":3}"#),
            (.renewTokenOK(id: "r", tokenExpiresAt: 7), #"{"op":"renewToken.ok","id":"r","tokenExpiresAt":7}"#),
            (.logoutOK(id: "o"), #"{"op":"logout.ok","id":"o"}"#),
            (.devicesOK(id: "d", devices: [DeviceEntry(resource: "r", deviceUUID: "u", deviceName: "n")]),
             #"{"op":"devices.ok","id":"d","devices":[{"resource":"r","deviceUUID":"u","deviceName":"n"}]}"#),
            (.sendOK(id: "s", messageId: "4", timestamp: 8), #"{"op":"send.ok","id":"s","messageId":"4","timestamp":8}"#),
            (.ackOK(id: "a"), #"{"op":"ack.ok","id":"a"}"#),
            (.error(id: nil, code: 110, message: "m", field: "op"), #"{"op":"error","code":110,"message":"m","field":"op"}"#),
        ]
        for (frame, text) in cases { #expect(frame.text == text) }
    }

    @Test("the frames written directly (a message and its send.ok) are byte for byte their JSON value's encoding")
    func directlyWrittenFramesEqualTheirJSON() {
        let awkward = ["", "plain", "quote \" backslash \\ slash /", "tab\tnew\nline\r\u{0}\u{1f}", "汉字 🙂 é", String(repeating: "x", count: 5000)]
        let numbers: [Int64] = [0, 7, -1, 1_767_225_600_123, Int64.max, Int64.min]
        for (index, text) in awkward.enumerated() {
            let number = numbers[index % numbers.count]
            let frames: [ServerFrame] = [
                .message(ChatMessage(messageId: text, from: "a\(index)", to: text, text: text, timestamp: number)),
                .sendOK(id: text, messageId: "m\(index)", timestamp: number),
            ]
            for frame in frames {
                #expect(frame.text == frame.json.encodedString)
                #expect((try? JSONValue.parse(frame.text)) == frame.json)
            }
        }
    }

    @Test func closeCodesAre4000PlusCode() {
        #expect(CloseCode.forCode(206) == 4206)
        #expect(CloseCode.forCode(8) == 4008)
        #expect(CloseCode.forCode(108) == 4108)
        #expect(CloseCode.forCode(2002) == 4999)
        #expect(CloseCode.normal == 1000)
    }
}
