import Testing

@testable import IMockNet

@Suite("Descriptor table")
struct DescriptorTableTests {
    @Test func valuesBySparseDescriptorsComeBackAndGo() {
        var table = DescriptorTable<String>()
        #expect(table[7] == nil)
        table[7] = "seven"
        table[3] = "three"
        table[-1] = "ignored"
        #expect(table[7] == "seven")
        #expect(table[3] == "three")
        #expect(table[-1] == nil)
        #expect(table[100] == nil)
        #expect(table.all.map(\.fd) == [3, 7])
        #expect(table.removeValue(forKey: 7) == "seven")
        #expect(table.removeValue(forKey: 7) == nil)
        table[50] = nil
        #expect(table.all.map(\.value) == ["three"])
    }
}
