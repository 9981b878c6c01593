import IMockCommon
import IMockCore
@testable import IMockWire
import IMockTestSupport
import Testing

@Suite("Gzip")
struct GzipTests {
    /// `gzip.compress(b"hello, gob", mtime=0)` and `gzip.compress(b"", mtime=0)` from Python 3.11.
    static let pythonHello = hex("1f8b0800000000000203cb48cdc9c9d75148cf4f02007101fcad0a000000")
    static let pythonEmpty = hex("1f8b080000000000020303000000000000000000")
    static let hello = Array("hello, gob".utf8)

    @Test("members written by Python's gzip module decompress")
    func pythonVectors() throws {
        #expect(try Gzip.decompress(Self.pythonHello, limit: 100) == Self.hello)
        #expect(try Gzip.decompress(Self.pythonEmpty, limit: 0) == [])
    }

    @Test("compress writes one RFC 1952 member that round-trips, for empty, small and large inputs")
    func roundTrip() throws {
        var random = SplitMix64(seed: 7)
        let noise = (0..<200_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        for input in [[], Self.hello, [UInt8](repeating: 0x61, count: 100_000), noise] {
            let compressed = Gzip.compress(input)
            #expect(compressed.prefix(3) == [0x1F, 0x8B, 0x08])  // magic, deflate
            #expect(try Gzip.decompress(compressed, limit: input.count) == input)
        }
    }

    @Test("the window and hash table fit the input: 512 B and level 2 up to 512 bytes, 32 KiB and level 8 from 16 KiB + 1")
    func compressionParameters() {
        let cases: [(Int, Int32, Int32)] = [
            (0, 9, 2), (1, 9, 2), (512, 9, 2), (513, 10, 3), (4096, 12, 5), (4097, 13, 6), (16_384, 14, 7),
            (16_385, 15, 8), (1 << 20, 15, 8),
        ]
        for (size, window, level) in cases {
            let parameters = Gzip.compressionParameters(forInputSize: size)
            #expect(parameters.windowBits == window && parameters.memLevel == level, "\(size)")
        }
    }

    @Test("a stored member is its input in stored blocks of at most 65,535 bytes: 18 bytes of header and trailer and 5 a block")
    func storedMembers() throws {
        for size in [0, 1, 200, 1023, 5000, 65_535, 65_536, 140_000] {
            let stored = Gzip.compress(Self.sample(size), level: .stored)
            #expect(stored[10] & 0b110 == 0, "\(size): BTYPE")
            #expect(stored.count == size + 18 + 5 * max(1, (size + 65_534) / 65_535), "\(size)")
            #expect(try Gzip.decompress(stored, limit: size) == Self.sample(size), "\(size)")
            guard size <= 5000 else { continue }
            let deflated = Gzip.compress(Self.sample(size))
            #expect(deflated[10] & 0b110 != 0, "\(size): BTYPE")
        }
    }

    /// Text-like bytes with repeats at every distance, so each window size has matches to find.
    static func sample(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(ascii: "a") + UInt8(($0 / 7 + $0 % 13) % 26) }
    }

    @Test("members of every window size, deflated and stored, round-trip, and Python's gzip module reads them (skipped without python3)")
    func everyWindowRoundTrips() throws {
        let eachSize = [0, 1, 100, 511, 512, 513, 1000, 4096, 4097, 20_000, 40_000, 65_535, 65_536, 140_000]
        let sizes = eachSize + eachSize
        let members = eachSize.map { Gzip.compress(Self.sample($0)) } + eachSize.map { Gzip.compress(Self.sample($0), level: .stored) }
        for (size, member) in zip(sizes, members) {
            #expect(try Gzip.decompress(member, limit: size) == Self.sample(size), "\(size)")
        }
        guard ExternalCommand.isAvailable("python3") else { return }
        let script = "import gzip,sys\nfor line in sys.stdin: print(len(gzip.decompress(bytes.fromhex(line.strip()))))"
        let hexLines = members.map { $0.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }
        let output = try ExternalCommand.runBlocking("python3", ["-c", script], stdin: hexLines.joined(separator: "\n") + "\n")
        #expect(output.status == 0)
        #expect(output.stdout.split(separator: "\n").map { Int($0) } == sizes.map { Optional($0) })
    }

    @Test("concatenated members decompress to the concatenation, as Go's gzip.Reader reads them")
    func multipleMembers() throws {
        let stream = Gzip.compress(Array("one ".utf8)) + Self.pythonHello
        #expect(try Gzip.decompress(stream, limit: 100) == Array("one hello, gob".utf8))
    }

    @Test("the output limit: exactly the limit passes, one byte more stops with an error")
    func limit() throws {
        #expect(try Gzip.decompress(Self.pythonHello, limit: Self.hello.count) == Self.hello)
        #expect(throws: GzipError.outputLimitExceeded(limit: 9)) { try Gzip.decompress(Self.pythonHello, limit: 9) }
        #expect(throws: GzipError.outputLimitExceeded(limit: 0)) { try Gzip.decompress(Self.pythonHello, limit: -5) }
    }

    @Test("a bomb (16 MiB of zeros in about 16 KiB) stops at the limit instead of inflating")
    func bomb() throws {
        let bomb = Gzip.compress([UInt8](repeating: 0, count: 16 << 20))
        #expect(bomb.count < 32 << 10)
        #expect(throws: GzipError.outputLimitExceeded(limit: 1 << 20)) { try Gzip.decompress(bomb, limit: 1 << 20) }
        // Splitting the bomb into members does not get around the limit: it counts all output.
        let member = Gzip.compress([UInt8](repeating: 0, count: 1 << 20))
        let members = Array([[UInt8]](repeating: member, count: 8).joined())
        #expect(throws: GzipError.outputLimitExceeded(limit: 4 << 20)) { try Gzip.decompress(members, limit: 4 << 20) }
        #expect(try Gzip.decompress(members, limit: 8 << 20).count == 8 << 20)
    }

    @Test("every truncation, including the empty input, is .truncated")
    func truncation() {
        for length in 0..<Self.pythonHello.count {
            #expect(throws: GzipError.truncated, "\(length) bytes") { try Gzip.decompress(Self.pythonHello.prefix(length), limit: 100) }
        }
    }

    @Test("bytes after the last member are refused, zero padding included")
    func trailingData() {
        #expect(throws: GzipError.trailingData(1)) { try Gzip.decompress(Self.pythonHello + [0], limit: 100) }
        #expect(throws: GzipError.trailingData(3)) { try Gzip.decompress(Self.pythonHello + Array("xyz".utf8), limit: 100) }
        #expect(throws: GzipError.truncated) { try Gzip.decompress(Self.pythonHello + [0x1F, 0x8B], limit: 100) }
    }

    @Test("a wrong magic, CRC-32 or length is .corrupt with zlib's reason")
    func corrupt() {
        func corrupted(at index: Int) -> [UInt8] {
            var bytes = Self.pythonHello
            bytes[index] ^= 0xFF
            return bytes
        }
        let count = Self.pythonHello.count
        #expect(throws: GzipError.corrupt("incorrect header check")) { try Gzip.decompress(corrupted(at: 0), limit: 100) }
        #expect(throws: GzipError.corrupt("incorrect data check")) { try Gzip.decompress(corrupted(at: count - 8), limit: 100) }
        #expect(throws: GzipError.corrupt("incorrect length check")) { try Gzip.decompress(corrupted(at: count - 4), limit: 100) }
        // A zlib (RFC 1950) stream is not gzip.
        #expect(throws: GzipError.corrupt("incorrect header check")) { try Gzip.decompress([0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01], limit: 100) }
    }

    @Test("a stored member is read by hand only when whole and valid; every fault is zlib's to report, as for any member")
    func storedMembersReadByHand() throws {
        let member = Gzip.compress(Self.sample(300), level: .stored)
        #expect(GzipStoredMember.read(member, limit: 300) == Self.sample(300))
        #expect(GzipStoredMember.read(Gzip.compress(Self.sample(300)), limit: 300) == nil, "deflated")
        #expect(GzipStoredMember.read(member + member, limit: 600) == nil, "two members")
        #expect(try Gzip.decompress(member + member, limit: 600) == Self.sample(300) + Self.sample(300))
        #expect(GzipStoredMember.read(member, limit: 299) == nil, "over the limit")
        #expect(throws: GzipError.outputLimitExceeded(limit: 299)) { try Gzip.decompress(member, limit: 299) }
        func corrupted(at index: Int) -> [UInt8] {
            var bytes = member
            bytes[index] ^= 0xFF
            return bytes
        }
        let count = member.count
        #expect(throws: GzipError.corrupt("incorrect data check")) { try Gzip.decompress(corrupted(at: count - 8), limit: 300) }
        #expect(throws: GzipError.corrupt("incorrect length check")) { try Gzip.decompress(corrupted(at: count - 4), limit: 300) }
        #expect(throws: GzipError.corrupt("invalid stored block lengths")) { try Gzip.decompress(corrupted(at: 13), limit: 300) }
        #expect(throws: GzipError.truncated) { try Gzip.decompress(Array(member.dropLast(3)), limit: 300) }
        // Every single-byte change is refused or read as zlib reads it, never trapping.
        for index in member.indices {
            let changed = corrupted(at: index)
            if let read = GzipStoredMember.read(changed, limit: 300) { #expect(read == (try? Gzip.decompress(changed, limit: 300))) }
        }
    }

    @Test("the fuzz seed corpus holds valid gzip streams")
    func fuzzSeeds() throws {
        let seeds = try CorpusFiles.seeds("gzip")
        #expect(seeds.count == 6)
        for (name, bytes) in seeds {
            #expect(throws: Never.self, "\(name)") { try Gzip.decompress(bytes, limit: 1 << 16) }
        }
    }

    @Test("20 000 random corruptions end in an error or bytes within the limit, never a trap")
    func neverTraps() {
        var random = SplitMix64(seed: 0x6219)
        let samples = [Self.pythonHello, Gzip.compress([UInt8](repeating: 7, count: 5000))]
        for round in 0..<20_000 {
            var bytes = samples[round % 2]
            for _ in 0...(random.next() % 3) {
                let index = Int(random.next() % UInt64(bytes.count))
                bytes[index] = UInt8(truncatingIfNeeded: random.next())
            }
            if let output = try? Gzip.decompress(bytes, limit: 1000) { #expect(output.count <= 1000) }
        }
    }
}
