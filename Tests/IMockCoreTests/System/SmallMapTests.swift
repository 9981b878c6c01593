import IMockCommon
import Testing

/// The map that scans a few pairs and hashes many answers what a dictionary answers, across
/// its threshold both ways, and stays cheap when large.
@Suite("SmallMap")
struct SmallMapTests {
    @Test("random updates and removals match a dictionary", arguments: [1, 2, 3])
    func matchesDictionary(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var map = SmallMap<String, Int>()
        var model: [String: Int] = [:]
        var wasHashed = false
        var wasUnhashed = false
        for step in 0..<4000 {
            // Phases that grow past the threshold and shrink below half of it again.
            let growing = (step / 500) % 2 == 0
            let key = String(random.next() % 40)
            if random.next() % 8 != 0 ? growing : !growing {
                #expect(map.updateValue(step, forKey: key) == model.updateValue(step, forKey: key))
            } else {
                #expect(map.removeValue(forKey: key) == model.removeValue(forKey: key))
            }
            if map.isHashed { wasHashed = true } else if wasHashed { wasUnhashed = true }
            #expect(map.count == model.count)
            #expect(map.isEmpty == model.isEmpty)
            #expect(map[key] == model[key])
            #expect(map.contains(key) == (model[key] != nil))
            #expect(Set(map.keys) == Set(model.keys))
        }
        #expect(wasHashed && wasUnhashed, "the map crossed its threshold both ways")
    }

    @Test("hashed past the threshold, scanned again below half of it")
    func threshold() {
        var map = SmallMap<String, Int>()
        let threshold = SmallMap<String, Int>.threshold
        for value in 0..<threshold { map.updateValue(value, forKey: String(value)) }
        #expect(!map.isHashed && map.count == threshold)
        map.updateValue(threshold, forKey: String(threshold))
        #expect(map.isHashed && map.count == threshold + 1)
        for value in 0...threshold { #expect(map[String(value)] == value) }
        var removed = 0
        while map.isHashed {
            #expect(map.removeValue(forKey: String(removed)) == removed)
            removed += 1
        }
        #expect(map.count == threshold / 2 - 1)
        for value in removed...threshold { #expect(map[String(value)] == value) }
        #expect(map[String(0)] == nil)
    }

    @Test("ten thousand entries removed out of order")
    func large() {
        var map = SmallMap<String, Int>()
        for value in 0..<10_000 { map.updateValue(value, forKey: String(value)) }
        var random = SplitMix64(seed: 7)
        var order = Array(0..<10_000)
        for index in order.indices.reversed() { order.swapAt(index, Int(random.next() % UInt64(index + 1))) }
        for value in order { #expect(map.removeValue(forKey: String(value)) == value) }
        #expect(map.isEmpty && !map.isHashed)
    }
}
