import IMockCommon
import Testing

@testable import IMockCore
import IMockWire

@Suite("Session engine: messages, offline and data sync")
struct MessagingTests {
    static func send(_ h: inout SessionHarness, from connection: UInt64, to user: String, _ text: String, id: String = "s")
        -> [SessionEffect]
    {
        h.frame(connection, #"{"op":"send","id":""# + id + #"","to":""# + user + #"","text":""# + text + #""}"#)
    }

    @Test func liveRecipientGetsTheMessageOnEverySession() throws {
        var h = try SessionHarness()
        _ = try h.login(1, "alice")
        _ = try h.login(2, "bob", uuid: "b1")
        _ = try h.login(3, "bob", uuid: "b2")
        let effects = Self.send(&h, from: 1, to: "Bob", "hi")
        let message = ChatMessage(messageId: "1", from: "alice", to: "bob", text: "hi", timestamp: h.nowMs)
        #expect(effects == [
            .send(ConnectionID(2), .message(message)), .send(ConnectionID(3), .message(message)),
            .send(ConnectionID(1), .sendOK(id: "s", messageId: "1", timestamp: h.nowMs)),
        ])
        #expect(h.engine.offlineMessages(of: "bob", in: h.app).isEmpty)
    }

    @Test func sendErrors() throws {
        var h = try SessionHarness()
        _ = try h.login(1, "alice")
        #expect(Self.send(&h, from: 1, to: "nobody", "hi")
            == [.send(ConnectionID(1), .error(id: "s", code: 204, message: "no such user", field: "to"))])
        #expect(Self.send(&h, from: 1, to: "no body", "hi")
            == [.send(ConnectionID(1), .error(id: "s", code: 110, message: "field to is not a valid username", field: "to"))])
    }

    @Test func fullOfflineQueueRefusesWith4() throws {
        var h = try SessionHarness(configuration: SessionEngineConfiguration(maximumOfflineMessagesPerUser: 2))
        _ = try h.login(1, "alice")
        _ = Self.send(&h, from: 1, to: "bob", "1")
        _ = Self.send(&h, from: 1, to: "bob", "2")
        let refused = Self.send(&h, from: 1, to: "bob", "3")
        #expect(refused.first
            == .send(ConnectionID(1), .error(id: "s", code: 4, message: "the recipient's offline queue is full", field: nil)))
        // ... and the refusal is journalled, in the imock protocol's words.
        guard refused.count == 2, case .journal(let line) = refused[1] else { Issue.record("\(refused)"); return }
        #expect(line.event == .frame(.error(id: "s", code: 4, message: "the recipient's offline queue is full", field: nil)))
        #expect(h.engine.offlineMessages(of: "bob", in: h.app).map(\.text) == ["1", "2"])
    }

    @Test func noOfflineFramesWhenNothingWaits() throws {
        var h = try SessionHarness()
        let effects = try h.login(1, "bob")
        #expect(frames(effects, to: 1).map(\.op) == ["login.ok"])
    }

    @Test func thousandOfflineMessagesArriveOnceEachAndInOrderAcrossADisconnect() throws {
        var h = try SessionHarness()
        _ = try h.login(1, "alice")
        for index in 0..<1000 { _ = Self.send(&h, from: 1, to: "bob", "m\(index)") }
        #expect(h.engine.offlineMessages(of: "bob", in: h.app).count == 1000)

        // First login: the whole queue between offline.start and offline.finish.
        let first = frames(try h.login(2, "bob", uuid: "phone"), to: 2)
        #expect(first.count == 1003)
        #expect(first[1] == .offlineStart(count: 1000))
        #expect(first.last == .offlineFinish)
        let firstTexts = first.compactMap { if case .message(let m) = $0 { m.text } else { nil } }
        #expect(firstTexts == (0..<1000).map { "m\($0)" })

        // The client stores and acks 400 messages, then the network drops mid-sync.
        var received: [String] = []
        for frame in first.prefix(402) {  // login.ok, offline.start, 400 messages
            guard case .message(let message) = frame else { continue }
            received.append(message.text)
            #expect(h.frame(2, #"{"op":"ack","id":"a","messageId":""# + message.messageId + #""}"#)
                == [.send(ConnectionID(2), .ackOK(id: "a"))])
        }
        #expect(h.close(2).isEmpty)  // silent: its token timers leave the engine's queue
        #expect(h.engine.offlineMessages(of: "bob", in: h.app).count == 600)

        // Second login: exactly the 600 unacked ones, in order; the acked ones never again.
        let second = frames(try h.login(3, "bob", uuid: "phone"), to: 3)
        #expect(second[1] == .offlineStart(count: 600))
        #expect(second.last == .offlineFinish)
        for frame in second {
            guard case .message(let message) = frame else { continue }
            received.append(message.text)
            _ = h.frame(3, #"{"op":"ack","id":"a","messageId":""# + message.messageId + #""}"#)
        }
        #expect(received == (0..<1000).map { "m\($0)" })
        #expect(Set(received).count == 1000)
        #expect(h.engine.offlineMessages(of: "bob", in: h.app).isEmpty)

        // Third login: nothing waits any more.
        #expect(frames(try h.login(4, "bob", uuid: "tablet"), to: 4).map(\.op) == ["login.ok"])
    }

    @Test func ackOfAnUnknownMessageIsAnError() throws {
        var h = try SessionHarness()
        _ = try h.login(1, "alice")
        #expect(h.frame(1, #"{"op":"ack","id":"a","messageId":"99"}"#) == [.send(ConnectionID(1), .error(
            id: "a", code: 500, message: "no offline message with this id is waiting", field: "messageId"))])
    }

    @Test func dataSyncStartsAndFinishesPerTypeAfterTheOfflineSync() throws {
        var h = try SessionHarness()
        _ = try h.login(1, "alice")
        _ = Self.send(&h, from: 1, to: "bob", "hello")
        let ops = frames(try h.login(2, "bob", sync: ["conversations", "contacts"]), to: 2).map(\.text)
        #expect(ops == [
            ops[0],
            #"{"op":"offline.start","count":1}"#,
            #"{"op":"message","messageId":"1","from":"alice","to":"bob","text":"hello","timestamp":1000000}"#,
            #"{"op":"offline.finish"}"#,
            #"{"op":"sync.start","type":"conversations"}"#,
            #"{"op":"sync.finish","type":"conversations"}"#,
            #"{"op":"sync.start","type":"contacts"}"#,
            #"{"op":"sync.finish","type":"contacts"}"#,
        ])
    }

    @Test func aFailingSyncTypeFinishesWithAnError() throws {
        var h = try SessionHarness()
        let faults = CommandFaults(failingSyncTypes: [.joinedGroups])
        let sent = frames(try h.login(1, "alice", sync: ["joinedGroups", "contacts"], faults: faults), to: 1)
        #expect(Array(sent.dropFirst()) == [
            .syncStart(type: .joinedGroups),
            .syncFinish(type: .joinedGroups, error: FrameErrorBody(code: 303, message: "data sync of joinedGroups failed")),
            .syncStart(type: .contacts), .syncFinish(type: .contacts, error: nil),
        ])
    }

    @Test func devicesListsTheUsersSessionsInLoginOrder() throws {
        var h = try SessionHarness()
        _ = try h.login(1, "alice", uuid: "a1", name: "iPhone")
        _ = try h.login(2, "alice", os: "web", uuid: "a2", name: "Chrome")
        #expect(h.frame(2, #"{"op":"devices","id":"d"}"#) == [.send(ConnectionID(2), .devicesOK(id: "d", devices: [
            DeviceEntry(resource: "ios_a1", deviceUUID: "a1", deviceName: "iPhone"),
            DeviceEntry(resource: "web_a2", deviceUUID: "a2", deviceName: "Chrome"),
        ]))])
    }

    @Test(arguments: [false, true])
    func logoutRepliesThenCloses1000(unbind: Bool) throws {
        var h = try SessionHarness()
        _ = try h.login(1, "alice")
        let effects = h.frame(1, #"{"op":"logout","id":"o","unbindDeviceToken":\#(unbind)}"#)
        #expect(wire(effects) == [
            .send(ConnectionID(1), .logoutOK(id: "o")), .close(ConnectionID(1), closeCode: 1000, reason: "logout"),
        ])
        #expect(h.engine.sessions(of: "alice", in: h.app).isEmpty)
        #expect(h.pendingTimers == 0)
    }

    @Test func failingUnbindKeepsTheSessionAndLogoutWithoutUnbindThenWorks() throws {
        var h = try SessionHarness()
        _ = try h.login(1, "alice")
        let faults = CommandFaults(failUnbind: true)
        #expect(h.frame(1, #"{"op":"logout","id":"o","unbindDeviceToken":true}"#, faults: faults) == [.send(ConnectionID(1), .error(
            id: "o", code: 212, message: "unbinding the device token failed", field: nil))])
        #expect(h.engine.sessions(of: "alice", in: h.app).count == 1)
        #expect(closes(h.frame(1, #"{"op":"logout","id":"o2","unbindDeviceToken":false}"#)).map(\.1) == [1000])
    }
}
