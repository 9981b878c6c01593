/// Size limits the HTTP/1.1 parser enforces on every request.
///
/// A request that passes a limit is rejected as soon as the overflow is known,
/// without waiting for the rest of it to arrive.
public struct HTTPLimits: Sendable, Equatable {
    /// The most bytes the head may take: the request line, every header line and the
    /// empty line that ends the head, each with its CRLF (exceeding it gives 431, also when the
    /// request line alone is too long: one limit, no separate 414).
    /// The trailer section of a chunked body has the same budget of its own.
    public var maxHeaderBytes: Int
    /// The most bytes a body may have after any chunked framing is removed (exceeding it gives 413).
    public var maxBodyBytes: Int
    /// The most header fields a head, or trailer fields a chunked body, may have (exceeding it gives 431).
    public var maxHeaderCount: Int
    /// The most bytes of one chunk-size line (size and extensions) without its CRLF.
    public static let maxChunkSizeLineBytes = 4096

    /// Creates limits; every field has a conservative default.
    public init(
        maxHeaderBytes: Int = 16 * 1024,
        maxBodyBytes: Int = 1 << 20,
        maxHeaderCount: Int = 100
    ) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderCount = maxHeaderCount
    }
}
