/// Why a request could not be parsed. The connection is answered with `status` and closed.
///
/// Header line numbers count header fields from 1 (the request line is not counted).
public enum HTTPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request line is not `method SP target SP version` or does not end in CRLF (400).
    case malformedRequestLine
    /// The method is empty or has a character that is not a token character (400).
    case invalidMethod
    /// The target is not origin-form (`/…`), absolute-form (`http://host/…`) or `*` for OPTIONS (400).
    case invalidTarget
    /// The version is not of the form `HTTP/<digit>.<digit>` (400).
    case malformedVersion
    /// The version is well-formed but neither HTTP/1.0 nor HTTP/1.1 (505).
    case unsupportedVersion(HTTPVersion)
    /// A header line has no colon (400).
    case headerLineWithoutColon(line: Int)
    /// A header line has whitespace between the field name and the colon, RFC 9112 §5.1 (400).
    case whitespaceBeforeColon(line: Int)
    /// A header line starts with a space or tab (obsolete line folding, RFC 9112 §5.2) (400).
    case obsoleteLineFolding(line: Int)
    /// A header line ends with a bare LF instead of CRLF (400).
    case bareLineFeed(line: Int)
    /// A header field name is empty or has a character that is not a token character (400).
    case invalidHeaderName(line: Int)
    /// A header field value has a control character such as NUL, CR or DEL (400).
    case invalidHeaderValue(line: Int)
    /// An HTTP/1.1 request has no Host header (400).
    case missingHost
    /// A request has more than one Host header (400).
    case multipleHosts
    /// A Content-Length value is not a non-negative decimal number that fits in an `Int` (400).
    case invalidContentLength
    /// Content-Length values disagree with each other (400).
    case conflictingContentLengths
    /// A request has both Transfer-Encoding and Content-Length (request smuggling guard) (400).
    case contentLengthWithTransferEncoding
    /// Transfer-Encoding is anything but exactly `chunked` (501).
    case unsupportedTransferEncoding
    /// A chunk-size line is not hexadecimal digits with optional extensions, or overflows (400).
    case invalidChunkSize
    /// The chunk data is not followed by CRLF (400).
    case missingChunkDataTerminator
    /// A trailer line of a chunked body is malformed (400).
    case malformedTrailer
    /// The head (or the trailer section) is larger than `HTTPLimits.maxHeaderBytes` (431).
    case headerSectionTooLarge
    /// The head (or the trailer section) has more than `HTTPLimits.maxHeaderCount` fields (431).
    case tooManyHeaders
    /// The body is larger than `HTTPLimits.maxBodyBytes` (413).
    case bodyTooLarge

    /// The HTTP status code to answer with before closing the connection.
    public var status: Int {
        switch self {
        case .unsupportedVersion: 505
        case .unsupportedTransferEncoding: 501
        case .headerSectionTooLarge, .tooManyHeaders: 431
        case .bodyTooLarge: 413
        case .malformedRequestLine, .invalidMethod, .invalidTarget, .malformedVersion,
            .headerLineWithoutColon, .whitespaceBeforeColon, .obsoleteLineFolding, .bareLineFeed,
            .invalidHeaderName, .invalidHeaderValue, .missingHost, .multipleHosts,
            .invalidContentLength, .conflictingContentLengths, .contentLengthWithTransferEncoding,
            .invalidChunkSize, .missingChunkDataTerminator, .malformedTrailer:
            400
        }
    }

    /// A stable snake_case name for the JSON `error` field, e.g. `header_line_without_colon`.
    public var name: String {
        switch self {
        case .malformedRequestLine: "malformed_request_line"
        case .invalidMethod: "invalid_method"
        case .invalidTarget: "invalid_target"
        case .malformedVersion: "malformed_version"
        case .unsupportedVersion: "unsupported_version"
        case .headerLineWithoutColon: "header_line_without_colon"
        case .whitespaceBeforeColon: "whitespace_before_colon"
        case .obsoleteLineFolding: "obsolete_line_folding"
        case .bareLineFeed: "bare_line_feed"
        case .invalidHeaderName: "invalid_header_name"
        case .invalidHeaderValue: "invalid_header_value"
        case .missingHost: "missing_host"
        case .multipleHosts: "multiple_hosts"
        case .invalidContentLength: "invalid_content_length"
        case .conflictingContentLengths: "conflicting_content_lengths"
        case .contentLengthWithTransferEncoding: "content_length_with_transfer_encoding"
        case .unsupportedTransferEncoding: "unsupported_transfer_encoding"
        case .invalidChunkSize: "invalid_chunk_size"
        case .missingChunkDataTerminator: "missing_chunk_data_terminator"
        case .malformedTrailer: "malformed_trailer"
        case .headerSectionTooLarge: "header_section_too_large"
        case .tooManyHeaders: "too_many_headers"
        case .bodyTooLarge: "body_too_large"
        }
    }

    /// A short human explanation, e.g. `header line 3 has no colon`.
    public var description: String {
        switch self {
        case .malformedRequestLine: "request line is not 'method SP target SP version' ending in CRLF"
        case .invalidMethod: "method is not a valid token"
        case .invalidTarget: "request target must start with '/', or be '*' for OPTIONS"
        case .malformedVersion: "HTTP version is malformed"
        case .unsupportedVersion(let version): "\(version) is not supported, only HTTP/1.0 and HTTP/1.1"
        case .headerLineWithoutColon(let line): "header line \(line) has no colon"
        case .whitespaceBeforeColon(let line): "header line \(line) has whitespace before the colon"
        case .obsoleteLineFolding(let line): "header line \(line) starts with whitespace (obsolete line folding)"
        case .bareLineFeed(let line): "header line \(line) ends with a bare LF instead of CRLF"
        case .invalidHeaderName(let line): "header line \(line) has an invalid field name"
        case .invalidHeaderValue(let line): "header line \(line) has a control character in its value"
        case .missingHost: "HTTP/1.1 request has no Host header"
        case .multipleHosts: "request has more than one Host header"
        case .invalidContentLength: "Content-Length is not a valid number"
        case .conflictingContentLengths: "Content-Length values differ"
        case .contentLengthWithTransferEncoding: "request has both Transfer-Encoding and Content-Length"
        case .unsupportedTransferEncoding: "only Transfer-Encoding: chunked is supported"
        case .invalidChunkSize: "chunk size line is malformed"
        case .missingChunkDataTerminator: "chunk data is not followed by CRLF"
        case .malformedTrailer: "trailer section of the chunked body is malformed"
        case .headerSectionTooLarge: "header section is too large"
        case .tooManyHeaders: "request has too many header fields"
        case .bodyTooLarge: "request body is too large"
        }
    }
}
