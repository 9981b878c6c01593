import IMockCommon
import Testing

@testable import IMockCore
import IMockWire

/// Logins in the imock JSON dialect's words (the engine's decisions: IMockCoreTests' LoginTests).
@Suite("imock JSON: login frames")
struct LoginFrameTests {
    @Test func anAcceptedLoginIsLoginOK() throws {
        var h = try SessionHarness()
        let effects = try h.login(1, "alice", uuid: "u1")
        #expect(frames(effects, to: 1).map(\.text)
            == [#"{"op":"login.ok","id":"L","resource":"ios_u1","tokenExpiresAt":4600000,"serverTime":1000000}"#])
    }

    /// Asserts the exact refusal: `login.error` with `code`, then close 4000+code, journalled.
    func expectRefusal(_ effects: [SessionEffect], code: Int, message: String, on connection: UInt64 = 1) {
        let expectedFrame = ServerFrame.loginError(id: "L", code: code, message: message)
        #expect(wire(effects) == [
            .send(ConnectionID(connection), expectedFrame),
            .close(ConnectionID(connection), closeCode: UInt16(4000 + code), reason: message),
        ])
        let journalled = effects.compactMap { effect -> JournalLine.Event? in
            if case .journal(let entry) = effect { return entry.event }
            return nil
        }
        #expect(journalled == [.frame(expectedFrame), .closed(code: UInt16(4000 + code), reason: message)])
    }

    @Test func malformedTokenIsRefusedWith104() throws {
        var h = try SessionHarness()
        expectRefusal(try h.login(1, "alice", token: "garbage"), code: 104, message: "invalid token")
    }

    @Test func requestsBeforeLoginAreRefusedWith201ButPingIsAnswered() throws {
        var h = try SessionHarness()
        h.open(1)
        #expect(h.frame(1, #"{"op":"ping","id":"p"}"#) == [.send(ConnectionID(1), .pong(id: "p", serverTime: h.nowMs))])
        #expect(h.frame(1, #"{"op":"devices","id":"d"}"#)
            == [.send(ConnectionID(1), .error(id: "d", code: 201, message: "log in first", field: nil))])
    }

    @Test func malformedFramesGetAnErrorAndKeepTheConnection() throws {
        var h = try SessionHarness()
        h.open(1)
        #expect(h.frame(1, #"{"op":"dance","id":"x1"}"#)
            == [.send(ConnectionID(1), .error(id: "x1", code: 110, message: #"unknown op "dance""#, field: "op"))])
        #expect(h.frame(1, "not json")
            == [.send(ConnectionID(1), .error(id: nil, code: 110, message: "invalid JSON: unexpected character at byte 1", field: nil))])
        let bad = #"{"op":"login","id":"L","appKey":"acme#chat","user":"alice","token":"t","device":{"os":"ios","uuid":"u","extension":""#
            + String(repeating: "x", count: 1025) + #""}}"#
        #expect(frames(h.frame(1, bad), to: 1) == [.error(
            id: "L", code: 110, message: "field device.extension is 1025 characters long; at most 1024 allowed",
            field: "device.extension")])
        // Still open and not logged in: a good login now works.
        guard case .loginOK? = frames(try h.login(1, "alice"), to: 1).first else { Issue.record("no login.ok"); return }
    }
}
