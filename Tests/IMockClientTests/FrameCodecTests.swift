import IMockCore
import IMockWire
import Testing
@testable import IMockClient

@Suite("Client frame encoding and server frame parsing")
struct FrameCodecTests {
    @Test("login encodes to the documented bytes")
    func loginBytes() {
        let frame = ClientFrame.login(
            id: "1",
            LoginRequest(
                appKey: "acme#chat", user: "alice", token: "YWMt",
                device: DeviceDescription(platform: .easemob(.ios), name: "Alice's iPhone", uuid: "6d580737", extensionInfo: "{\"v\":1}"),
                autoLogin: false, sync: [.conversations, .contacts]))
        #expect(
            frame.text
                == #"{"op":"login","id":"1","appKey":"acme#chat","user":"alice","token":"YWMt","device":{"os":"ios","name":"Alice's iPhone","uuid":"6d580737","extension":"{\"v\":1}"},"sync":["conversations","contacts"]}"#
        )
    }

    static let clientFrames: [ClientFrame] = [
        .login(
            id: "a", LoginRequest(appKey: "o#a", user: "u", token: "t", device: DeviceDescription(platform: .easemob(.custom(7)), uuid: "x"), autoLogin: true)),
        .login(id: "b", LoginRequest(appKey: "o#a", user: "u", token: "t", device: DeviceDescription(platform: .openIM(.android), uuid: "y", resource: "r"))),
        .ping(id: nil), .ping(id: "p"), .renewToken(id: "7", token: "n"), .logout(id: "9", unbindDeviceToken: true),
        .logout(id: "9", unbindDeviceToken: false), .devices(id: "3"), .send(id: "4", to: "bob", text: "hi \"x\""),
        .ack(id: "5", messageId: "17"),
    ]

    @Test("every client frame survives the server's parser", arguments: clientFrames)
    func clientRoundTrip(frame: ClientFrame) throws {
        #expect(try ClientFrameParser.parse(frame.text) == frame)
    }

    static let serverFrames: [ServerFrame] = [
        .loginOK(id: "1", resource: "ios_1", tokenExpiresAt: 5, serverTime: 4), .loginOK(id: "1", resource: "r", tokenExpiresAt: nil, serverTime: 4),
        .loginError(id: "1", code: 104, message: "invalid token"), .pong(id: nil, serverTime: 3), .pong(id: "p", serverTime: 3),
        .kicked(code: 206, reason: "other", by: KickedBy(deviceName: "Pixel", extensionInfo: "hello")),
        .kicked(code: 217, reason: "forced", by: nil), .tokenWillExpire(expiresAt: 9), .tokenExpired,
        .offlineStart(count: 2), .offlineFinish, .syncStart(type: .contacts), .syncFinish(type: .contacts, error: nil),
        .syncFinish(type: .joinedGroups, error: FrameErrorBody(code: 303, message: "failed")),
        .message(ChatMessage(messageId: "17", from: "bob", to: "alice", text: "hi", timestamp: 1)),
        .renewTokenOK(id: "7", tokenExpiresAt: 10), .logoutOK(id: "9"),
        .devicesOK(id: "3", devices: [DeviceEntry(resource: "ios_1", deviceUUID: "1", deviceName: "n")]),
        .sendOK(id: "4", messageId: "18", timestamp: 2), .ackOK(id: "5"),
        .error(id: "x", code: 110, message: "unknown op", field: "op"), .error(id: nil, code: 201, message: "log in first", field: nil),
    ]

    @Test("every server frame parses back from its text", arguments: serverFrames)
    func serverRoundTrip(frame: ServerFrame) throws {
        #expect(try ServerFrameParser.parse(frame.text) == frame)
    }

    @Test(
        "malformed server frames get a precise error",
        arguments: [
            ("[1]", FrameError.notAnObject),
            (#"{"op":"dance"}"#, .unknownOp("dance")),
            (#"{"op":"kicked","reason":"x"}"#, .missingField("code")),
            (#"{"op":"kicked","code":"206","reason":"x"}"#, .wrongType(field: "code", expected: "an integer")),
            (#"{"op":"kicked","code":-1,"reason":"x"}"#, .invalidValue(field: "code", reason: "must be 0 to 2147483647")),
            (#"{"op":"sync.start","type":"friends"}"#, .invalidValue(field: "type", reason: "is not one of conversations, contacts, joinedGroups")),
            (#"{"op":"devices.ok","id":"1","devices":[3]}"#, .wrongType(field: "devices[0]", expected: "an object")),
            (#"{"op":"sync.finish","type":"contacts","error":{"code":1}}"#, .missingField("error.message")),
        ])
    func malformed(text: String, expected: FrameError) {
        #expect(throws: expected) { try ServerFrameParser.parse(text) }
    }

    @Test("text that is not JSON is refused as invalid JSON")
    func notJSON() {
        #expect {
            try ServerFrameParser.parse("nope")
        } throws: { error in
            guard case .invalidJSON = error as? FrameError else { return false }
            return true
        }
    }
}
