import IMockCore
import Testing

@testable import IMockStore

/// Offline queues keep the engine's order through sends (back), put-backs (front), acks and
/// drops.
@Suite struct OfflineQueueTests {
    let scratch: ScratchDirectory
    let store: PersistentStore
    let app = StoreFixtures.chat

    init() throws {
        scratch = try ScratchDirectory()
        store = try PersistentStore.open(directory: scratch.path)
        try StoreFixtures.storeApp(users: 1...2, in: store)
    }

    private func queue(of recipient: String) throws -> [String] {
        try store.load().offlineQueues.first { $0.app == app && $0.recipient == recipient }?.messages.map(\.messageId) ?? []
    }

    @Test("sends join the back, put-backs the front in their order, acks remove one")
    func order() throws {
        try store.apply((1...3).map { .offlineMessageQueued(app: app, StoreFixtures.message($0)) })
        try store.apply([.offlineMessagesQueued(app: app, recipient: "bob", messages: [StoreFixtures.message(8), StoreFixtures.message(9)], at: .front)])
        try store.apply([.offlineMessageQueued(app: app, StoreFixtures.message(4))])
        #expect(try queue(of: "bob") == ["8", "9", "1", "2", "3", "4"])

        try store.apply([.offlineMessageRemoved(app: app, recipient: "bob", messageID: "1")])
        try store.apply([.offlineMessagesQueued(app: app, recipient: "bob", messages: [StoreFixtures.message(7)], at: .front)])
        #expect(try queue(of: "bob") == ["7", "8", "9", "2", "3", "4"])

        // The messages come back whole.
        let loaded = try store.load().offlineQueues
        #expect(loaded.count == 1)
        #expect(loaded[0].messages[1] == StoreFixtures.message(8))
    }

    @Test("an ack of a message that is not queued is a no-op; a message queued twice is refused")
    func idempotence() throws {
        try store.apply([.offlineMessageQueued(app: app, StoreFixtures.message(1))])
        try store.apply([.offlineMessageRemoved(app: app, recipient: "bob", messageID: "99")])
        #expect(throws: StoreError.self) { try store.apply([.offlineMessageQueued(app: app, StoreFixtures.message(1))]) }
        #expect(try queue(of: "bob") == ["1"])
    }

    @Test("dropping one queue or every queue of an app; other recipients keep theirs")
    func drops() throws {
        try store.apply([
            .offlineMessageQueued(app: app, StoreFixtures.message(1, to: "bob")),
            .offlineMessageQueued(app: app, StoreFixtures.message(2, to: "carol")),
            .offlineMessageQueued(app: app, StoreFixtures.message(3, to: "bob")),
        ])
        try store.apply([.offlineQueueDropped(app: app, recipient: "bob")])
        #expect(try store.load().offlineQueues.map(\.recipient) == ["carol"])
        try store.apply([.offlineQueuesDropped(app: app)])
        #expect(try store.load().offlineQueues.isEmpty)
    }

    @Test("a message addressed to someone else than the queue's owner is refused")
    func wrongRecipient() throws {
        #expect(throws: StoreError.invalidChange("message 1 is to bob, not to the queue's owner carol")) {
            try store.apply([.offlineMessagesQueued(app: app, recipient: "carol", messages: [StoreFixtures.message(1)], at: .back)])
        }
    }

    @Test("the queues match the session engine's after sends, a put-back and acks")
    func matchesEngine() throws {
        // The engine's own order (SessionEngine.offlineMessages) is what the changes describe:
        // sends append, an output overflow puts the untaken messages back in front.
        var expected: [ChatMessage] = []
        var changes: [StoreChange] = []
        for id in 1...5 {
            expected.append(StoreFixtures.message(id))
            changes.append(.offlineMessageQueued(app: app, StoreFixtures.message(id)))
        }
        expected.removeAll { $0.messageId == "2" }
        changes.append(.offlineMessageRemoved(app: app, recipient: "bob", messageID: "2"))
        let putBack = [StoreFixtures.message(10), StoreFixtures.message(11)]
        expected = putBack + expected
        changes.append(.offlineMessagesQueued(app: app, recipient: "bob", messages: putBack, at: .front))
        try store.apply(changes)
        #expect(try store.load().offlineQueues == [StoredOfflineQueue(app: app, recipient: "bob", messages: expected)])
    }
}
