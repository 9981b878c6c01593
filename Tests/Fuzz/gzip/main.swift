// Fuzz target `gzip`: gzip decompression (OpenIM gateway frames) over the system zlib.
//
// Properties (a violation traps):
// - Decompression with a small limit ends in an error or at most `limit` bytes.
// - What decompresses compresses to a stream that decompresses to the same bytes.
// - The input itself, compressed, decompresses to the input (and a limit one byte short of it
//   is refused).
// - Never a trap, never an out-of-bounds access (ASan).

import IMockWire

private let limit = 4096

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGzip(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzBytes(data, size)
    if let output = try? Gzip.decompress(input, limit: limit) {
        check(output.count <= limit, "\(output.count) bytes decompressed past the limit of \(limit)")
        check(roundTrips(output), "decompressed bytes do not survive compress → decompress")
    }
    check(roundTrips(input), "the input does not survive compress → decompress")
    if !input.isEmpty {
        check((try? Gzip.decompress(Gzip.compress(input), limit: input.count - 1)) == nil, "a limit one byte short accepted")
    }
    return 0
}

private func roundTrips(_ bytes: [UInt8]) -> Bool {
    (try? Gzip.decompress(Gzip.compress(bytes), limit: bytes.count)) == bytes
}
