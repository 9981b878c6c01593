import CZlib

/// gzip (RFC 1952) over the system zlib: the compression of OpenIM gateway frames
/// (`compression=gzip`), read on the server side by Go's `compress/gzip`.
public enum Gzip {
    /// zlib's window bits for a gzip wrapper: a 32 KiB window (15) plus 16.
    static let windowBits: Int32 = 15 + 16
    /// How much output one `inflate` call may write.
    static let chunkSize = 16 * 1024
    /// The smallest output chunk of a decompression (one for an input of 256 bytes or less).
    static let minimumChunkSize = 1024
    /// The first two bytes of every member.
    static let magic: [UInt8] = [0x1F, 0x8B]

    /// How hard ``compress(_:level:)`` works.
    public enum Level: Sendable, Equatable {
        /// zlib's default (6).
        case standard
        /// Stored blocks: the data uncompressed inside a valid gzip member, which every reader
        /// accepts (RFC 1951 §3.2.4). For a frame of a few hundred bytes deflate saves a few
        /// dozen bytes and costs over ten times as much as storing it (building its Huffman
        /// trees is most of that).
        case stored
    }

    /// `bytes` as one gzip member at `level`, with a window and hash table no larger than the
    /// input needs (``compressionParameters(forInputSize:)``).
    public static func compress(_ bytes: some Collection<UInt8>, level: Level = .standard) -> [UInt8] {
        var input = Array(bytes)
        if level == .stored { return GzipStoredMember.write(input) }
        let stream = ZStream()
        let (window, memLevel) = compressionParameters(forInputSize: input.count)
        var status = czlib_deflate_init2(stream.pointer, Z_DEFAULT_COMPRESSION, window + 16, memLevel)
        precondition(status == Z_OK, "deflateInit2 failed: \(status)")
        defer { deflateEnd(stream.pointer) }
        precondition(input.count <= Int(UInt32.max), "gzip input over 4 GiB")
        // deflateBound includes the gzip header and trailer, so one Z_FINISH call completes.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(stream.pointer, uLong(input.count))))
        input.withUnsafeMutableBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                stream.pointer.pointee.next_in = input.baseAddress
                stream.pointer.pointee.avail_in = uInt(input.count)
                stream.pointer.pointee.next_out = output.baseAddress
                stream.pointer.pointee.avail_out = uInt(output.count)
                status = deflate(stream.pointer, Z_FINISH)
            }
        }
        precondition(status == Z_STREAM_END, "deflate did not finish: \(status)")
        output.removeLast(Int(stream.pointer.pointee.avail_out))
        return output
    }

    /// One gzip member of the data `body` appends to the buffer it is given: stored blocks when
    /// the data is shorter than `storedBelow` bytes, else deflated at zlib's default level — the
    /// same bytes as ``compress(_:level:)`` of that data at `.stored` or `.standard`. A stored
    /// member is written around the data in place (one buffer, no copy of the data);
    /// `capacity` is the data's expected size.
    /// - Precondition: `storedBelow` is at most 65,536 (one stored block).
    public static func compress(storedBelow: Int, capacity: Int, _ body: (inout [UInt8]) -> Void) -> [UInt8] {
        precondition(storedBelow <= GzipStoredMember.maximumBlock + 1, "Gzip: a stored member in place is one block")
        var out = GzipStoredMember.beginSingleBlock(capacity: capacity)
        body(&out)
        guard out.count - GzipStoredMember.singleBlockPrefix < storedBelow else {
            return compress(out[GzipStoredMember.singleBlockPrefix...], level: .standard)
        }
        GzipStoredMember.endSingleBlock(&out)
        return out
    }

    /// zlib's window bits (9–15: a window of 512 B to 32 KiB) and memory level (1–8) for `count`
    /// bytes: the smallest window that holds the input, and a hash table to match. At the
    /// defaults (15, 8) every stream allocates about 260 KiB and clears a 64 KiB table; an
    /// OpenIM frame of a few hundred bytes needs a few KiB of either. The output is a gzip member
    /// like any other: a decoder's window is the largest there is, 32 KiB.
    static func compressionParameters(forInputSize count: Int) -> (windowBits: Int32, memLevel: Int32) {
        let needed = Int32(Int.bitWidth - max(0, count - 1).leadingZeroBitCount)
        let windowBits = min(15, max(9, needed))
        return (windowBits, max(1, windowBits - 7))
    }

    /// The data of the gzip stream `bytes`: one member, or several concatenated (RFC 1952 §2.2,
    /// as Go's `gzip.Reader` reads them), each with its CRC-32 and length checked.
    ///
    /// At most `limit` bytes of output are produced: beyond that decompression stops with
    /// ``GzipError/outputLimitExceeded(limit:)``, so a small bomb cannot allocate more than
    /// `limit` + 16 KiB. Anything after the last member, even zero padding, is refused.
    public static func decompress(_ bytes: some Collection<UInt8>, limit: Int) throws(GzipError) -> [UInt8] {
        let limit = max(0, limit)
        var input = Array(bytes)
        guard !input.isEmpty else { throw .truncated }
        // One valid member of stored blocks (what ``compress(_:level:)`` stores) is read by hand;
        // anything else, and every error, is zlib's to read and report.
        if let stored = GzipStoredMember.read(input, limit: limit) { return stored }
        let stream = ZStream()
        let status = czlib_inflate_init2(stream.pointer, windowBits)
        guard status == Z_OK else { throw .zlib(status) }
        defer { inflateEnd(stream.pointer) }
        var output: [UInt8] = []
        // Sized to the frame: a 16 KiB chunk zeroed for every frame of a few hundred bytes was
        // 6.6 % of an OpenIM server's instructions (callgrind of `bench messages`); a larger
        // output takes more turns of the loop below.
        let chunkCount = min(chunkSize, limit + 1, max(minimumChunkSize, input.count * 4))
        var chunk = [UInt8](repeating: 0, count: chunkCount)
        try input.withUnsafeMutableBufferPointer { (input) throws(GzipError) in
            stream.pointer.pointee.next_in = input.baseAddress
            stream.pointer.pointee.avail_in = uInt(clamping: input.count)
            try inflateAll(stream, into: &output, chunk: &chunk, limit: limit)
        }
        return output
    }

    /// Runs `inflate` until the input ends after a member, with output capped at `limit` + 1.
    private static func inflateAll(_ stream: ZStream, into output: inout [UInt8], chunk: inout [UInt8], limit: Int) throws(GzipError) {
        while true {
            let room = min(chunk.count, limit + 1 - output.count)
            let status = chunk.withUnsafeMutableBufferPointer { chunk in
                stream.pointer.pointee.next_out = chunk.baseAddress
                stream.pointer.pointee.avail_out = uInt(room)
                return inflate(stream.pointer, Z_NO_FLUSH)
            }
            output.append(contentsOf: chunk[0..<(room - Int(stream.pointer.pointee.avail_out))])
            guard output.count <= limit else { throw .outputLimitExceeded(limit: limit) }
            switch status {
            case Z_OK:
                continue
            case Z_STREAM_END:
                let left = Int(stream.pointer.pointee.avail_in)
                if left == 0 { return }
                let next = stream.pointer.pointee.next_in!
                guard left >= magic.count, next[0] == magic[0], next[1] == magic[1] else { throw .trailingData(left) }
                inflateReset(stream.pointer)  // another member; next_in and avail_in are kept
            case Z_BUF_ERROR:
                throw .truncated  // there is room for output, so zlib is out of input
            case Z_DATA_ERROR, Z_NEED_DICT:
                let message = stream.pointer.pointee.msg.map { String(cString: $0) } ?? "invalid data"
                throw .corrupt(message)
            default:
                throw .zlib(status)
            }
        }
    }
}

/// A `z_stream` at a fixed address: zlib keeps a pointer back to it and checks it on every call.
private final class ZStream {
    let pointer: UnsafeMutablePointer<z_stream>

    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: z_stream())
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}
