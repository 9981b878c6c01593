// # HTTPRequestParser: an incremental HTTP/1.1 request parser
//
// Bytes go in with `feed(_:)`, events come out of `next()`. The parser does no I/O and
// keeps no clock: the connection decides what to do with each event.
//
//     requestLine ──▶ headers ──┬──────────────────────────────────────▶ (request)
//         ▲  (empty lines       ├─▶ fixedBody ─────────────────────────▶ (request)
//         │   skipped)          └─▶ chunkSize ◀─▶ chunkData ─▶ chunkDataEnd
//         │                            └─(size 0)─▶ trailers ──────────▶ (request)
//         └──────────────── after every complete request ◀──────────────┘
//     any state ──(malformed or over a limit)──▶ failed (terminal)
//
// - The head is consumed line by line. Each line must end in CRLF and is validated as
//   soon as it is complete, so errors (and limit overflows) are reported without waiting
//   for the empty line that ends the head. A line's search for LF resumes where the last
//   search stopped (`lineScanOffset`), so a head trickling in byte by byte is scanned once.
// - When the head is complete the body framing is decided (Content-Length, chunked or
//   none). A Content-Length over the limit fails at once, before any of the body arrives.
// - `Expect: 100-continue` (HTTP/1.1 only) makes the first `.needMore` of that request's
//   body an `.expectContinue` instead; if the whole body is already buffered it is skipped.
// - Pipelined requests stay in the buffer and come out one per `next()`, in order.
// - The buffer is a `[UInt8]` with a read index; consumed bytes are dropped in `feed(_:)`
//   once they are at least half of the buffer, so the copy cost is amortized O(1) per byte.
// - After an error the parser is `failed`: every later `next()` returns the same error and
//   fed bytes are discarded.

/// An incremental HTTP/1.1 request parser (RFC 9112), a value-type state machine with no I/O.
///
/// Feed it the bytes read from a connection, then call `next()` until it returns
/// `.needMore`. After an upgrade request (WebSocket), stop calling `next()` and take the
/// remaining bytes with `takeBufferedBytes()`.
public struct HTTPRequestParser: Sendable {
    /// The limits every request is checked against.
    public let limits: HTTPLimits

    /// How many empty lines before a request line are tolerated (RFC 9112 §2.2).
    static let maxLeadingEmptyLines = 8
    /// Consumed bytes are only compacted away once there are at least this many.
    static let compactionThreshold = 4096

    private enum Phase: Sendable, Equatable {
        case requestLine
        case headers
        case fixedBody(length: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case failed(HTTPParseError)
    }

    /// The result of one step of the state machine.
    private enum Step {
        case proceed
        case needMore
        case complete
        case fail(HTTPParseError)
    }

    private enum LineScan {
        case line(Range<Int>)
        case needMore
        case tooLong
        case bareLineFeed
    }

    private var buffer: [UInt8] = []
    /// The first byte not yet consumed.
    private var readIndex = 0
    /// The first byte of the request whose head is being parsed (head phases only).
    private var requestStart = 0
    /// Bytes after `readIndex` already searched for LF without finding one.
    private var lineScanOffset = 0
    private var phase: Phase = .requestLine

    // The request being assembled.
    private var leadingEmptyLines = 0
    private var requestLine: HTTPSyntax.RequestLine?
    private var fields: [(String, String)] = []
    private var headers = HTTPHeaders()
    private var body: [UInt8] = []
    private var owesContinue = false
    /// Bytes of the head, or of the trailer section, counted so far.
    private var sectionBytes = 0
    /// Trailer fields counted so far.
    private var trailerCount = 0

    /// Creates a parser with the given limits.
    public init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
    }

    /// True when nothing of a next request has been received: no partial head or body is buffered.
    /// A connection in this state is under the idle timeout rather than the request timeout.
    public var isIdle: Bool {
        phase == .requestLine && readIndex == buffer.count
    }

    /// True when part of a request head (but not all of it) has been received.
    public var hasPartialHead: Bool {
        switch phase {
        case .requestLine: readIndex < buffer.count
        case .headers: true
        default: false
        }
    }

    /// Appends bytes received from the connection. Ignored once the parser has failed.
    public mutating func feed(_ bytes: some Collection<UInt8>) {
        if case .failed = phase { return }
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Returns the next event; call it again until it returns `.needMore`.
    public mutating func next() -> HTTPParseEvent {
        while true {
            let step: Step
            switch phase {
            case .failed(let error): return .error(error)
            case .requestLine: step = parseRequestLine()
            case .headers: step = parseHeaderLine()
            case .fixedBody(let length): step = readFixedBody(length: length)
            case .chunkSize: step = parseChunkSizeLine()
            case .chunkData(let remaining): step = readChunkData(remaining: remaining)
            case .chunkDataEnd: step = readChunkDataEnd()
            case .trailers: step = parseTrailerLine()
            }
            switch step {
            case .proceed:
                continue
            case .needMore:
                if owesContinue {
                    owesContinue = false
                    return .expectContinue
                }
                return .needMore
            case .complete:
                return .request(finishRequest())
            case .fail(let error):
                phase = .failed(error)
                buffer = []
                readIndex = 0
                requestStart = 0
                return .error(error)
            }
        }
    }

    /// Returns and removes every buffered byte that is not part of a complete request,
    /// and makes the parser idle. Call it after an upgrade request instead of `next()`:
    /// the bytes are the first bytes of the new protocol. A partially received head is
    /// included as received; a partially received body is dropped.
    public mutating func takeBufferedBytes() -> [UInt8] {
        let start: Int
        switch phase {
        case .requestLine, .headers: start = requestStart
        case .failed: start = buffer.count
        default: start = readIndex
        }
        let bytes = Array(buffer[start...])
        buffer = []
        readIndex = 0
        if case .failed = phase { return bytes }
        resetRequest()
        return bytes
    }

    // MARK: Buffer

    private mutating func compact() {
        let keepFrom: Int
        switch phase {
        case .requestLine, .headers: keepFrom = requestStart
        default: keepFrom = readIndex
        }
        if keepFrom == buffer.count {
            buffer.removeAll(keepingCapacity: true)
        } else if keepFrom >= Self.compactionThreshold, keepFrom * 2 >= buffer.count {
            buffer.removeSubrange(..<keepFrom)
        } else {
            return
        }
        readIndex -= keepFrom
        requestStart = max(0, requestStart - keepFrom)
    }

    /// Finds the next CRLF-terminated line of at most `maxLength` bytes (CRLF not counted)
    /// and consumes it. Never searches further than the limit allows.
    private mutating func nextLine(maxLength: Int) -> LineScan {
        guard maxLength >= 0 else { return .tooLong }
        let windowEnd = readIndex + min(buffer.count - readIndex, maxLength + 2)
        let searchStart = min(readIndex + lineScanOffset, windowEnd)
        guard let lineFeed = buffer[searchStart..<windowEnd].firstIndex(of: HTTPSyntax.lf) else {
            if windowEnd - readIndex >= maxLength + 2 { return .tooLong }
            lineScanOffset = windowEnd - readIndex
            return .needMore
        }
        lineScanOffset = 0
        guard lineFeed > readIndex, buffer[lineFeed - 1] == HTTPSyntax.cr else { return .bareLineFeed }
        let line = readIndex..<(lineFeed - 1)
        readIndex = lineFeed + 1
        return .line(line)
    }

    // MARK: Head

    private mutating func parseRequestLine() -> Step {
        requestStart = readIndex
        let headRoom = limits.maxHeaderBytes - 2  // the empty line ending the head is 2 bytes
        switch nextLine(maxLength: headRoom) {
        case .needMore:
            return .needMore
        case .tooLong:
            return .fail(.headerSectionTooLarge)
        case .bareLineFeed:
            return .fail(.malformedRequestLine)
        case .line(let range) where range.isEmpty:
            leadingEmptyLines += 1
            return leadingEmptyLines > Self.maxLeadingEmptyLines ? .fail(.malformedRequestLine) : .proceed
        case .line(let range):
            switch HTTPSyntax.parseRequestLine(buffer[range]) {
            case .failure(let error):
                return .fail(error)
            case .success(let line):
                requestLine = line
                sectionBytes = range.count + 2
                phase = .headers
                return .proceed
            }
        }
    }

    private mutating func parseHeaderLine() -> Step {
        let lineNumber = fields.count + 1
        switch nextLine(maxLength: limits.maxHeaderBytes - sectionBytes - 2) {
        case .needMore:
            return .needMore
        case .tooLong:
            return .fail(.headerSectionTooLarge)
        case .bareLineFeed:
            return .fail(.bareLineFeed(line: lineNumber))
        case .line(let range) where range.isEmpty:
            return finishHead()
        case .line(let range):
            guard lineNumber <= limits.maxHeaderCount else { return .fail(.tooManyHeaders) }
            sectionBytes += range.count + 2
            switch HTTPSyntax.parseFieldLine(buffer[range]) {
            case .success(let field):
                fields.append(field)
                return .proceed
            case .failure(.noColon): return .fail(.headerLineWithoutColon(line: lineNumber))
            case .failure(.whitespaceBeforeColon): return .fail(.whitespaceBeforeColon(line: lineNumber))
            case .failure(.obsoleteFolding): return .fail(.obsoleteLineFolding(line: lineNumber))
            case .failure(.invalidName): return .fail(.invalidHeaderName(line: lineNumber))
            case .failure(.invalidValue): return .fail(.invalidHeaderValue(line: lineNumber))
            }
        }
    }

    /// Validates the complete head and chooses how the body is read.
    private mutating func finishHead() -> Step {
        guard let requestLine else { return .fail(.malformedRequestLine) }
        headers = HTTPHeaders(fields)
        fields = []
        let hostCount = headers.values(for: "Host").count
        if hostCount > 1 { return .fail(.multipleHosts) }
        if hostCount == 0, requestLine.version == .http1_1 { return .fail(.missingHost) }
        switch HTTPBodyFraming.from(headers, maxBodyBytes: limits.maxBodyBytes) {
        case .failure(let error):
            return .fail(error)
        case .success(.empty):
            return .complete
        case .success(.fixed(let length)):
            phase = .fixedBody(length: length)
        case .success(.chunked):
            phase = .chunkSize
        }
        // RFC 9110 §10.1.1: an HTTP/1.0 client cannot expect 100 Continue.
        owesContinue = requestLine.version == .http1_1 && headers.tokens(for: "Expect").contains("100-continue")
        return .proceed
    }

    // MARK: Body

    private mutating func readFixedBody(length: Int) -> Step {
        guard buffer.count - readIndex >= length else { return .needMore }
        body = Array(buffer[readIndex..<(readIndex + length)])
        readIndex += length
        return .complete
    }

    private mutating func parseChunkSizeLine() -> Step {
        switch nextLine(maxLength: HTTPLimits.maxChunkSizeLineBytes) {
        case .needMore:
            return .needMore
        case .tooLong, .bareLineFeed:
            return .fail(.invalidChunkSize)
        case .line(let range):
            guard let size = HTTPSyntax.parseChunkSize(buffer[range]) else { return .fail(.invalidChunkSize) }
            if size == 0 {
                sectionBytes = 0
                trailerCount = 0
                phase = .trailers
            } else {
                guard size <= limits.maxBodyBytes - body.count else { return .fail(.bodyTooLarge) }
                phase = .chunkData(remaining: size)
            }
            return .proceed
        }
    }

    private mutating func readChunkData(remaining: Int) -> Step {
        let count = min(remaining, buffer.count - readIndex)
        guard count > 0 else { return .needMore }
        body.append(contentsOf: buffer[readIndex..<(readIndex + count)])
        readIndex += count
        phase = count == remaining ? .chunkDataEnd : .chunkData(remaining: remaining - count)
        return .proceed
    }

    private mutating func readChunkDataEnd() -> Step {
        let available = buffer.count - readIndex
        guard available > 0 else { return .needMore }
        guard buffer[readIndex] == HTTPSyntax.cr else { return .fail(.missingChunkDataTerminator) }
        guard available > 1 else { return .needMore }
        guard buffer[readIndex + 1] == HTTPSyntax.lf else { return .fail(.missingChunkDataTerminator) }
        readIndex += 2
        phase = .chunkSize
        return .proceed
    }

    /// Trailer fields are validated like header fields, counted against the header limits, and discarded.
    private mutating func parseTrailerLine() -> Step {
        switch nextLine(maxLength: limits.maxHeaderBytes - sectionBytes - 2) {
        case .needMore:
            return .needMore
        case .tooLong:
            return .fail(.headerSectionTooLarge)
        case .bareLineFeed:
            return .fail(.malformedTrailer)
        case .line(let range) where range.isEmpty:
            return .complete
        case .line(let range):
            trailerCount += 1
            guard trailerCount <= limits.maxHeaderCount else { return .fail(.tooManyHeaders) }
            sectionBytes += range.count + 2
            guard case .success = HTTPSyntax.parseFieldLine(buffer[range]) else { return .fail(.malformedTrailer) }
            return .proceed
        }
    }

    // MARK: Completion

    private mutating func finishRequest() -> HTTPRequest {
        let line = requestLine ?? HTTPSyntax.RequestLine(method: "", target: "/", version: .http1_1)
        let request = HTTPRequest(
            method: line.method, target: line.target, version: line.version, headers: headers, body: body)
        resetRequest()
        return request
    }

    private mutating func resetRequest() {
        phase = .requestLine
        requestStart = readIndex
        lineScanOffset = 0
        leadingEmptyLines = 0
        requestLine = nil
        fields = []
        headers = HTTPHeaders()
        body = []
        owesContinue = false
        sectionBytes = 0
        trailerCount = 0
    }
}
