// Helpers compiled into every fuzz target: `scripts/fuzz.sh` adds `Tests/Fuzz/Support/*.swift`
// to each target's own files. Only the standard library is used here, so a target links no
// module it does not import itself.

/// Stops the run when a property does not hold. The trap is a crash to libFuzzer, which then
/// saves the input as `crash-<sha1>` and reports it.
func check(
    _ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
) {
    if !condition { fatalError("fuzz property violated: \(message())", file: file, line: line) }
}

/// The bytes libFuzzer passes to `LLVMFuzzerTestOneInput` (`data` may be null when `size` is 0).
func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}

/// Choices derived from the input itself (split points, limits, operations), so one input
/// always replays the same run: a SplitMix64 stream seeded with the input's FNV-1a hash.
struct InputDerivedChoices {
    private var state: UInt64

    /// A stream seeded by `bytes` (and `salt`, so two uses of one input can differ).
    init(_ bytes: some Sequence<UInt8>, salt: UInt64 = 0) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ salt
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        state = hash
    }

    /// The next 64 pseudo-random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (0 when `bound` is 0).
    mutating func below(_ bound: Int) -> Int {
        bound <= 0 ? 0 : Int(next() % UInt64(bound))
    }

    /// One of `options`.
    mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }

    /// `bytes` cut into consecutive non-empty pieces of at most `maximum` bytes each; the
    /// pieces joined are `bytes` again.
    mutating func split(_ bytes: [UInt8], maximum: Int = 16) -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + 1 + below(max(1, maximum)))
            pieces.append(bytes[start..<end])
            start = end
        }
        return pieces
    }
}
