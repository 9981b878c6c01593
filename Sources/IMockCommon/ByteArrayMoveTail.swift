extension [UInt8] {
    /// Moves the bytes from `index` to the end so that they start at `destination` (at most
    /// `index`), shifting the bytes between right: how an encoder puts a length it learned
    /// after writing a body in front of it, in place. `insert(contentsOf:at:)` does the same
    /// through a generic collection path that costs hundreds of instructions.
    /// - Precondition: `0 <= destination <= index <= count`.
    public mutating func moveTail(from index: Int, to destination: Int) {
        precondition(0 <= destination && destination <= index && index <= count, "moveTail: bad indices")
        let tail = count - index
        let shifted = index - destination
        guard tail > 0, shifted > 0 else { return }
        withUnsafeMutableBytes { buffer in
            let base = buffer.baseAddress!
            withUnsafeTemporaryAllocation(byteCount: tail, alignment: 1) { saved in
                saved.baseAddress!.copyMemory(from: base + index, byteCount: tail)
                (base + destination + tail).copyMemory(from: base + destination, byteCount: shifted)
                (base + destination).copyMemory(from: saved.baseAddress!, byteCount: tail)
            }
        }
    }
}
