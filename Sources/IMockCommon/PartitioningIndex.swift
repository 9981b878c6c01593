extension RandomAccessCollection {
    /// The first index whose element belongs in the second partition, by binary search: the
    /// collection must hold every element for which `belongsInSecondPartition` is false before
    /// every element for which it is true (a sorted array and "is at least x" for example).
    /// `endIndex` when none does. O(log n) calls of the predicate.
    public func partitioningIndex(where belongsInSecondPartition: (Element) throws -> Bool) rethrows -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if try belongsInSecondPartition(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
