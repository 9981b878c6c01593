import IMockCommon
@testable import IMockCore
import Testing

/// The offline queue answers what a plain array answers, through random sends and acks (in
/// order, out of order, of ids that are not there), and acking a long queue stays cheap.
@Suite struct OfflineQueueTests {
    @Test("the queue matches an array model", arguments: [1, 2, 3])
    func matchesArray(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var queue = OfflineQueue()
        var model: [ChatMessage] = []
        var next = 1
        for _ in 0..<3000 {
            if model.isEmpty || random.next() % 3 == 0 {
                let message = ChatMessage(messageId: String(next), from: "a", to: "b", text: "t\(next)", timestamp: Int64(next))
                next += 1
                queue.append(message)
                model.append(message)
            } else {
                // Mostly the oldest (a client acking as it reads), sometimes any, sometimes none.
                let pick = random.next() % 10
                let id = pick < 6 ? model[0].messageId : pick < 9 ? model[Int(random.next() % UInt64(model.count))].messageId : "x"
                let removed = queue.remove(id)
                #expect(removed == model.contains { $0.messageId == id })
                model.removeAll { $0.messageId == id }
            }
            #expect(queue.count == model.count)
            #expect(queue.isEmpty == model.isEmpty)
            #expect(queue.messages == model)
        }
    }

    @Test("ten thousand messages acked oldest first")
    func longQueue() {
        var queue = OfflineQueue((1...10_000).map {
            ChatMessage(messageId: String($0), from: "a", to: "b", text: "t", timestamp: Int64($0))
        })
        for id in 1...10_000 {
            let removed = queue.remove(String(id))
            #expect(removed)
        }
        #expect(queue.isEmpty && queue.messages.isEmpty)
    }
}
