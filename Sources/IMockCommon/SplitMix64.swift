/// A small, fast, seeded pseudo-random generator (SplitMix64, Steele et al. 2014): the same seed
/// gives the same sequence on every platform, so a fault's random choices can be replayed.
public struct SplitMix64: RandomNumberGenerator, Sendable, Equatable {
    private var state: UInt64

    /// Starts the sequence at `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform number in [0, 1) from the top 53 bits.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// True with probability `probability` (0 → never, 1 → always; both draw nothing, so a
    /// certain fault does not move the sequence).
    public mutating func chance(_ probability: Double) -> Bool {
        if probability >= 1 { return true }
        if probability <= 0 { return false }
        return nextUnit() < probability
    }

    /// The seed of the `index`-th child stream of `seed` (each fault draws from its own stream,
    /// so one fault's choices do not depend on what other faults drew).
    public static func derive(_ seed: UInt64, _ index: UInt64) -> UInt64 {
        var mixer = SplitMix64(seed: seed ^ (index &* 0xD1B5_4A32_D192_ED03))
        return mixer.next()
    }
}
