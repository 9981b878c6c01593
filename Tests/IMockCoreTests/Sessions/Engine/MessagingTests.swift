import IMockCommon
import IMockTestSupport
import Testing

@testable import IMockCore

@Suite("Session engine: messages, offline and data sync")
struct MessagingTests {
    static func send(_ h: inout EngineHarness, from connection: UInt64, to user: String, _ text: String) -> [SessionOutput] {
        h.handle(connection, .send(RequestTag("s"), to: user, text: text))
    }

    /// The text of each message pushed to `connection`.
    static func texts(_ pushes: [SessionPush]) -> [String] {
        pushes.compactMap { if case .message(let message) = $0 { message.text } else { nil } }
    }

    @Test func liveRecipientGetsTheMessageOnEverySession() throws {
        var h = try EngineHarness()
        _ = try h.login(1, "alice")
        _ = try h.login(2, "bob", uuid: "b1")
        _ = try h.login(3, "bob", uuid: "b2")
        let outputs = Self.send(&h, from: 1, to: "Bob", "hi")
        let message = ChatMessage(messageId: "1", from: "alice", to: "bob", text: "hi", timestamp: h.nowMs)
        #expect(outputs == [
            .push(ConnectionID(2), .message(message)), .push(ConnectionID(3), .message(message)),
            .reply(ConnectionID(1), RequestTag("s"), .sent(messageId: "1", timestamp: h.nowMs)),
        ])
        #expect(h.engine.offlineMessages(of: "bob", in: h.app).isEmpty)
    }

    @Test func sendErrors() throws {
        var h = try EngineHarness()
        _ = try h.login(1, "alice")
        #expect(Self.send(&h, from: 1, to: "nobody", "hi") == [.reply(ConnectionID(1), RequestTag("s"), .refused(.recipientNotFound, field: "to"))])
        #expect(Self.send(&h, from: 1, to: "no body", "hi") == [.reply(ConnectionID(1), RequestTag("s"), .refused(.invalidRecipient, field: "to"))])
    }

    @Test func fullOfflineQueueRefuses() throws {
        var h = try EngineHarness(configuration: SessionEngineConfiguration(maximumOfflineMessagesPerUser: 2))
        _ = try h.login(1, "alice")
        _ = Self.send(&h, from: 1, to: "bob", "1")
        _ = Self.send(&h, from: 1, to: "bob", "2")
        let refused = Self.send(&h, from: 1, to: "bob", "3")
        #expect(refused.first == .reply(ConnectionID(1), RequestTag("s"), .refused(.offlineQueueFull, field: nil)))
        // ... and the refusal is journalled.
        guard refused.count == 2, case .journal(let entry) = refused[1] else { Issue.record("\(refused)"); return }
        #expect(entry.event == .refused(RequestTag("s"), .offlineQueueFull))
        #expect(h.engine.offlineMessages(of: "bob", in: h.app).map(\.text) == ["1", "2"])
    }

    @Test func noOfflineSyncWhenNothingWaits() throws {
        var h = try EngineHarness()
        let outputs = try h.login(1, "bob")
        #expect(pushes(outputs, to: 1).isEmpty)
        guard case .loginAccepted? = replies(outputs, to: 1).first else { Issue.record("\(outputs)"); return }
    }

    @Test func thousandOfflineMessagesArriveOnceEachAndInOrderAcrossADisconnect() throws {
        var h = try EngineHarness()
        _ = try h.login(1, "alice")
        for index in 0..<1000 { _ = Self.send(&h, from: 1, to: "bob", "m\(index)") }
        #expect(h.engine.offlineMessages(of: "bob", in: h.app).count == 1000)

        // First login: the whole queue between the offline start and finish.
        let first = pushes(try h.login(2, "bob", uuid: "phone"), to: 2)
        #expect(first.count == 1002)
        #expect(first.first == .offlineStart(count: 1000))
        #expect(first.last == .offlineFinish)
        #expect(Self.texts(first) == (0..<1000).map { "m\($0)" })

        // The client stores and acks 400 messages, then the network drops mid-sync.
        var received: [String] = []
        for push in first.prefix(401) {  // offline start, 400 messages
            guard case .message(let message) = push else { continue }
            received.append(message.text)
            #expect(h.handle(2, .ack(RequestTag("a"), messageId: message.messageId)) == [.reply(ConnectionID(2), RequestTag("a"), .acked)])
        }
        #expect(h.close(2).isEmpty)  // silent: its token timers leave the engine's queue
        #expect(h.engine.offlineMessages(of: "bob", in: h.app).count == 600)

        // Second login: exactly the 600 unacked ones, in order; the acked ones never again.
        let second = pushes(try h.login(3, "bob", uuid: "phone"), to: 3)
        #expect(second.first == .offlineStart(count: 600))
        #expect(second.last == .offlineFinish)
        for push in second {
            guard case .message(let message) = push else { continue }
            received.append(message.text)
            h.handle(3, .ack(RequestTag("a"), messageId: message.messageId))
        }
        #expect(received == (0..<1000).map { "m\($0)" })
        #expect(Set(received).count == 1000)
        #expect(h.engine.offlineMessages(of: "bob", in: h.app).isEmpty)

        // Third login: nothing waits any more.
        #expect(pushes(try h.login(4, "bob", uuid: "tablet"), to: 4).isEmpty)
    }

    @Test func ackOfAnUnknownMessageIsRefused() throws {
        var h = try EngineHarness()
        _ = try h.login(1, "alice")
        #expect(h.handle(1, .ack(RequestTag("a"), messageId: "99")) == [
            .reply(ConnectionID(1), RequestTag("a"), .refused(.messageNotWaiting, field: "messageId"))
        ])
    }

    @Test func dataSyncStartsAndFinishesPerTypeAfterTheOfflineSync() throws {
        var h = try EngineHarness()
        _ = try h.login(1, "alice")
        _ = Self.send(&h, from: 1, to: "bob", "hello")
        #expect(pushes(try h.login(2, "bob", sync: [.conversations, .contacts]), to: 2) == [
            .offlineStart(count: 1),
            .message(ChatMessage(messageId: "1", from: "alice", to: "bob", text: "hello", timestamp: 1_000_000)),
            .offlineFinish,
            .syncStart(.conversations), .syncFinish(.conversations, error: nil),
            .syncStart(.contacts), .syncFinish(.contacts, error: nil),
        ])
    }

    @Test func aFailingSyncTypeFinishesWithAnError() throws {
        var h = try EngineHarness()
        let faults = CommandFaults(failingSyncTypes: [.joinedGroups])
        #expect(pushes(try h.login(1, "alice", sync: [.joinedGroups, .contacts], faults: faults), to: 1) == [
            .syncStart(.joinedGroups), .syncFinish(.joinedGroups, error: .syncFailed(.joinedGroups)),
            .syncStart(.contacts), .syncFinish(.contacts, error: nil),
        ])
    }

    @Test func devicesListsTheUsersSessionsInLoginOrder() throws {
        var h = try EngineHarness()
        _ = try h.login(1, "alice", uuid: "a1", name: "iPhone")
        _ = try h.login(2, "alice", platform: .easemob(.web), uuid: "a2", name: "Chrome")
        #expect(h.handle(2, .devices(RequestTag("d"))) == [.reply(ConnectionID(2), RequestTag("d"), .devices([
            DeviceEntry(resource: "ios_a1", deviceUUID: "a1", deviceName: "iPhone"),
            DeviceEntry(resource: "web_a2", deviceUUID: "a2", deviceName: "Chrome"),
        ]))])
    }

    @Test(arguments: [false, true])
    func logoutRepliesThenEndsTheSession(unbind: Bool) throws {
        var h = try EngineHarness()
        _ = try h.login(1, "alice")
        let outputs = h.handle(1, .logout(RequestTag("o"), unbindDeviceToken: unbind))
        #expect(replies(outputs, to: 1) == [.loggedOut])
        #expect(ends(outputs).map(\.end.cause) == [.loggedOut])
        #expect(h.engine.sessions(of: "alice", in: h.app).isEmpty)
        #expect(h.pendingTimers == 0)
    }

    @Test func failingUnbindKeepsTheSessionAndLogoutWithoutUnbindThenWorks() throws {
        var h = try EngineHarness()
        _ = try h.login(1, "alice")
        let faults = CommandFaults(failUnbind: true)
        #expect(h.handle(1, .logout(RequestTag("o"), unbindDeviceToken: true), faults: faults) == [
            .reply(ConnectionID(1), RequestTag("o"), .refused(.unbindFailed, field: nil))
        ])
        #expect(h.engine.sessions(of: "alice", in: h.app).count == 1)
        #expect(ends(h.handle(1, .logout(RequestTag("o2"), unbindDeviceToken: false))).map(\.end.cause) == [.loggedOut])
    }
}
