import Synchronization

/// The one source of randomness of a run: every id, salt, UUID, key and secret the server
/// makes, and every fault's choices, draw from it. Secure by default (the operating system's
/// generator, `getrandom(2)` on Linux); seeded (`imock serve --seed-random N`) it is a
/// ``SplitMix64`` stream, so two runs with the same seed make the same ids and keys.
///
/// Thread-safe.
public final class RandomSource: Sendable {
    /// The seeded stream; nil for the system's generator.
    private let seeded: Mutex<SplitMix64?>
    /// Whether the stream is reproducible.
    public let isSeeded: Bool

    /// The operating system's cryptographically secure generator.
    public static let secure = RandomSource()

    private init() {
        seeded = Mutex(nil)
        isSeeded = false
    }

    /// A reproducible stream from `seed` (for tests and `--seed-random`; not for secrets that
    /// must stay unguessable).
    public init(seed: UInt64) {
        seeded = Mutex(SplitMix64(seed: seed))
        isSeeded = true
    }

    /// The next 64 random bits.
    public func next() -> UInt64 {
        if isSeeded { return seeded.withLock { $0!.next() } }
        var system = SystemRandomNumberGenerator()
        return system.next()
    }

    /// `count` random bytes.
    public func bytes(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        var output: [UInt8] = []
        output.reserveCapacity(count)
        while output.count < count {
            var word = next()
            for _ in 0..<min(8, count - output.count) {
                output.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return output
    }

    /// A random version-4 UUID in lower-case 8-4-4-4-12 form.
    public func uuidString() -> String {
        var bytes = self.bytes(16)
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
