@testable import IMockCore
import IMockCommon
import Testing

/// The inline list of a queued message's holders answers what an array answers.
@Suite struct ConnectionListTests {
    @Test("appends and removals match an array", arguments: [1, 2])
    func matchesArray(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var list = ConnectionList()
        var model: [ConnectionID] = []
        for _ in 0..<2000 {
            let connection = ConnectionID(random.next() % 5)
            if random.next() % 2 == 0 {
                if !model.contains(connection) {
                    list.append(connection)
                    model.append(connection)
                }
            } else {
                let index = model.firstIndex(of: connection)
                #expect(list.remove(connection) == (index != nil))
                if let index { model.remove(at: index) }
            }
            #expect(Array(list) == model)
            #expect(list.isEmpty == model.isEmpty && list.count == model.count)
            #expect(list.contains(connection) == model.contains(connection))
            #expect(list == ConnectionList(model))
        }
    }
}
