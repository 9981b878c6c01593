/// Why bytes are not an acceptable gzip stream (RFC 1952).
public enum GzipError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input ends before the end of a member (header, deflate data or trailer), or is empty.
    case truncated
    /// zlib refused the data; its message says why ("incorrect header check", "incorrect data
    /// check" for a bad CRC-32, "incorrect length check", "invalid block type" …).
    case corrupt(String)
    /// Bytes after the last member that do not start another member.
    case trailingData(Int)
    /// The output would exceed the caller's limit; decompression stopped there.
    case outputLimitExceeded(limit: Int)
    /// zlib failed in a way input cannot cause (memory, version mismatch): its status code.
    case zlib(Int32)

    /// A one-line explanation, for logs and close reasons.
    public var description: String {
        switch self {
        case .truncated: "gzip: input ends inside a member"
        case .corrupt(let reason): "gzip: corrupt data: \(reason)"
        case .trailingData(let count): "gzip: \(count) bytes of trailing data"
        case .outputLimitExceeded(let limit): "gzip: output exceeds \(limit) bytes"
        case .zlib(let status): "gzip: zlib error \(status)"
        }
    }
}
