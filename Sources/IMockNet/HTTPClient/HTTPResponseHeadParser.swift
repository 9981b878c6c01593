/// An incremental parser of an HTTP/1.x response head (status line and headers up to the
/// empty line), for imock's HTTP clients: the WebSocket handshake, `HTTPResponseReader`, `HTTPFetch`.
///
/// Feed received bytes until it returns the head; the bytes after the head (`leftover`)
/// already belong to the WebSocket stream. The parser is then finished and returns nil.
/// Lines must end in CRLF; obsolete line folding is refused. After an error, discard the parser.
public struct HTTPResponseHeadParser: Sendable {
    /// Why a response head was refused.
    public enum ParseError: Error, Equatable, Sendable {
        /// The head is longer than the limit (no CRLFCRLF within `limit` bytes).
        case headTooLarge(limit: Int)
        /// The status line is not `HTTP/x.y NNN reason`.
        case malformedStatusLine
        /// A header line is not `name: value`, a line ends without CRLF, or a line is folded.
        case malformedHeaderLine
    }

    /// The default size limit of a response head, 16 KiB.
    public static let defaultMaxHeadSize = 16 * 1024

    /// The largest head accepted, the final CRLFCRLF included.
    public let maxHeadSize: Int

    private var buffer: [UInt8] = []
    /// Where the search for CRLFCRLF resumes (bytes before it cannot start the terminator).
    private var searchIndex = 0
    private var isFinished = false

    /// A parser accepting heads of at most `maxHeadSize` bytes.
    public init(maxHeadSize: Int = HTTPResponseHeadParser.defaultMaxHeadSize) {
        self.maxHeadSize = maxHeadSize
    }

    /// Adds received bytes; returns the head and the bytes after it once the head is complete,
    /// nil while more bytes are needed (and after the head was returned).
    public mutating func feed(_ bytes: some Collection<UInt8>) throws(ParseError) -> (head: HTTPResponseHead, leftover: [UInt8])? {
        guard !isFinished else { return nil }
        buffer.append(contentsOf: bytes)
        guard let headEnd = findTerminator() else {
            if buffer.count > maxHeadSize { throw .headTooLarge(limit: maxHeadSize) }
            return nil
        }
        if headEnd > maxHeadSize { throw .headTooLarge(limit: maxHeadSize) }
        isFinished = true
        let head = try Self.parseHead(buffer[..<(headEnd - 2)])
        let leftover = Array(buffer[headEnd...])
        buffer = []
        return (head, leftover)
    }

    /// The index just past the first CRLFCRLF, if the buffer holds one.
    private mutating func findTerminator() -> Int? {
        var index = searchIndex
        while index + 4 <= buffer.count {
            if buffer[index] == 0x0D && buffer[index + 1] == 0x0A && buffer[index + 2] == 0x0D
                && buffer[index + 3] == 0x0A
            {
                return index + 4
            }
            index += 1
        }
        searchIndex = max(0, buffer.count - 3)
        return nil
    }

    /// Parses the head without its final empty line; each line, the last included, ends in CRLF.
    private static func parseHead(_ bytes: ArraySlice<UInt8>) throws(ParseError) -> HTTPResponseHead {
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            switch bytes[index] {
            case 0x0D:
                guard index + 1 < bytes.endIndex, bytes[index + 1] == 0x0A else {
                    throw lines.isEmpty ? .malformedStatusLine : .malformedHeaderLine
                }
                lines.append(bytes[lineStart..<index])
                index += 2
                lineStart = index
            case 0x0A:
                throw lines.isEmpty ? .malformedStatusLine : .malformedHeaderLine
            default:
                index += 1
            }
        }
        guard let statusLine = lines.first else { throw .malformedStatusLine }
        var head = try parseStatusLine(statusLine)
        for line in lines.dropFirst() {
            let field = try parseHeaderLine(line)
            head.headers.add(field.name, field.value)
        }
        return head
    }

    /// `HTTP/1.1 101 Switching Protocols` (the reason phrase may be empty or absent).
    private static func parseStatusLine(_ line: ArraySlice<UInt8>) throws(ParseError) -> HTTPResponseHead {
        let bytes = Array(line)
        guard bytes.count >= 12, bytes.starts(with: Array("HTTP/".utf8)),
            let major = digitValue(bytes[5]), bytes[6] == UInt8(ascii: "."), let minor = digitValue(bytes[7]),
            bytes[8] == UInt8(ascii: " "),
            let s1 = digitValue(bytes[9]), let s2 = digitValue(bytes[10]), let s3 = digitValue(bytes[11]),
            bytes.count == 12 || bytes[12] == UInt8(ascii: " ")
        else { throw .malformedStatusLine }
        let reason = bytes.count > 13 ? String(decoding: bytes[13...], as: UTF8.self) : ""
        return HTTPResponseHead(
            version: HTTPVersion(major: major, minor: minor), status: s1 * 100 + s2 * 10 + s3,
            reasonPhrase: reason)
    }

    private static func parseHeaderLine(_ line: ArraySlice<UInt8>) throws(ParseError) -> (name: String, value: String) {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
            line[line.startIndex..<colon].allSatisfy(isTokenByte)
        else { throw .malformedHeaderLine }
        let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self)
        let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingASCIIWhitespace()
        return (name, value)
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        (0x30...0x39).contains(byte) ? Int(byte - 0x30) : nil
    }

    /// RFC 9110 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
