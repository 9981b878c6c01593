import IMockCommon
import Testing

/// The binary search that sorted tables share (issued tokens, users by sequence, OpenIM seqs).
@Suite("partitioningIndex")
struct PartitioningIndexTests {
    @Test("the first index of the second partition, for every split of arrays of 0 to 40 elements")
    func everySplit() {
        for count in 0...40 {
            let values = Array(0..<count)
            for split in 0...count {
                #expect(values.partitioningIndex { $0 >= split } == split, "\(count) \(split)")
            }
        }
    }

    @Test("on a slice the index is the base's; equal elements stay in their partition")
    func slicesAndEqualElements() {
        let values = [1, 3, 3, 3, 5, 8]
        #expect(values[2...].partitioningIndex { $0 > 3 } == 4)
        #expect(values[2...].partitioningIndex { $0 >= 3 } == 2)
        #expect(values.partitioningIndex { $0 > 100 } == values.endIndex)
    }
}
