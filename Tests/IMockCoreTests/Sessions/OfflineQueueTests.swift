import IMockCommon
@testable import IMockCore
import Testing

/// The queue answers what a plain array answers, through random sends (waiting, or in flight to
/// one or two connections), holds (pulled), releases and removals (in order, out of order, of ids that are not
/// there): waiting and in-flight messages keep their places, and acking a long queue stays cheap.
@Suite struct OfflineQueueTests {
    @Test("the queue matches an array model", arguments: [1, 2, 3])
    func matchesArray(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var queue = OfflineQueue()
        var model: [(message: ChatMessage, holders: [ConnectionID])] = []
        var next = 1
        for _ in 0..<3000 {
            let roll = random.next() % 7
            if model.isEmpty || roll < 2 {
                let message = ChatMessage(messageId: String(next), from: "a", to: "b", text: "t\(next)", timestamp: Int64(next))
                next += 1
                let holders = (0..<Int(random.next() % 3)).map { ConnectionID(UInt64($0 + 1)) }
                queue.append(message, heldBy: ConnectionList(holders))
                model.append((message, holders))
            } else if roll == 6 {
                // A connection pulled it (an OpenIM answer carries it): held, once per connection.
                let index = Int(random.next() % UInt64(model.count))
                let connection = ConnectionID(random.next() % 3)
                let held = queue.hold(model[index].message.messageId, by: connection)
                #expect(held == !model[index].holders.contains(connection))
                if held { model[index].holders.append(connection) }
                let unknown = queue.hold("x", by: connection)
                #expect(!unknown, "a message not queued is not held")
            } else if roll < 4 {
                // A holder closes: the message waits again once nobody holds it.
                let index = Int(random.next() % UInt64(model.count))
                let connection = ConnectionID(random.next() % 3)
                let released = queue.release(model[index].message.messageId, from: connection)
                let held = model[index].holders.contains(connection)
                #expect((released != nil) == held)
                model[index].holders.removeAll { $0 == connection }
            } else {
                // Mostly the oldest (a client acking as it reads), sometimes any, sometimes none.
                let pick = random.next() % 10
                let id = pick < 6 ? model[0].message.messageId
                    : pick < 9 ? model[Int(random.next() % UInt64(model.count))].message.messageId : "x"
                let removed = queue.remove(id)
                #expect(removed.map { Array($0.holders) } == model.first { $0.message.messageId == id }?.holders)
                model.removeAll { $0.message.messageId == id }
            }
            #expect(queue.count == model.count)
            #expect(queue.isEmpty == model.isEmpty)
            #expect(queue.messages == model.filter { $0.holders.isEmpty }.map(\.message))
            #expect(queue.allMessages == model.map(\.message))
        }
    }

    @Test("indexed past the threshold, scanned again below half of it, the same messages in the same order")
    func threshold() {
        let limit = OfflineQueue.indexThreshold
        var queue = OfflineQueue()
        var model: [ChatMessage] = []
        var random = SplitMix64(seed: 5)
        for round in 0..<3 {
            for serial in 0..<(3 * limit) {
                let message = ChatMessage(
                    messageId: "\(round)-\(serial)", from: "a", to: "b", text: "t", timestamp: Int64(serial))
                queue.append(message, heldBy: serial % 2 == 0 ? ConnectionList([ConnectionID(9)]) : ConnectionList())
                model.append(message)
                #expect(queue.isIndexed == (model.count > limit))
            }
            var wasIndexed = true
            while let index = model.indices.randomElement(using: &random) {
                let id = model.remove(at: index).messageId
                #expect(queue.remove(id)?.message.messageId == id)
                #expect(queue.remove(id) == nil, "removed once")
                #expect(queue.allMessages == model)
                #expect(queue.count == model.count)
                if wasIndexed, !queue.isIndexed {
                    #expect(model.count == limit / 2 - 1)
                    wasIndexed = false
                }
            }
            #expect(!wasIndexed && queue.isEmpty)
        }
    }

    @Test("ten thousand messages acked in random order")
    func longQueueOutOfOrder() {
        var queue = OfflineQueue((1...10_000).map {
            ChatMessage(messageId: String($0), from: "a", to: "b", text: "t", timestamp: Int64($0))
        })
        var random = SplitMix64(seed: 11)
        var order = Array(1...10_000)
        for index in order.indices.reversed() { order.swapAt(index, Int(random.next() % UInt64(index + 1))) }
        for id in order {
            let removed = queue.remove(String(id))
            #expect(removed?.message.messageId == String(id))
        }
        #expect(queue.isEmpty && queue.messages.isEmpty && !queue.isIndexed)
    }

    @Test("ten thousand messages acked oldest first")
    func longQueue() {
        var queue = OfflineQueue((1...10_000).map {
            ChatMessage(messageId: String($0), from: "a", to: "b", text: "t", timestamp: Int64($0))
        })
        for id in 1...10_000 {
            let removed = queue.remove(String(id))
            #expect(removed != nil)
        }
        #expect(queue.isEmpty && queue.messages.isEmpty)
    }
}
