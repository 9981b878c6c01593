/// Byte-level grammar of HTTP/1.1 (RFC 9110 §5.6, RFC 9112): token characters,
/// field values, and the parsing of one request line or one field line.
enum HTTPSyntax {
    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let colon = UInt8(ascii: ":")

    /// RFC 9110 tchar: `!#$%&'*+-.^_`|~`, digits and letters.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// Whether `bytes` is a non-empty token.
    static func isToken(_ bytes: some Collection<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy(isTokenCharacter)
    }

    /// Field-value characters: VCHAR, obs-text, SP and HTAB; never a control character.
    static func isFieldValueCharacter(_ byte: UInt8) -> Bool {
        byte == tab || (byte >= 0x20 && byte != 0x7F)
    }

    static func isWhitespace(_ byte: UInt8) -> Bool { byte == space || byte == tab }

    // MARK: Field lines

    /// Why a field line was rejected.
    enum FieldLineProblem: Error, Equatable {
        case noColon, whitespaceBeforeColon, obsoleteFolding, invalidName, invalidValue
    }

    /// Parses `name: value` (without its CRLF), trimming optional whitespace around the value.
    static func parseFieldLine(_ line: ArraySlice<UInt8>) -> Result<(name: String, value: String), FieldLineProblem> {
        guard let first = line.first else { return .failure(.noColon) }
        if isWhitespace(first) { return .failure(.obsoleteFolding) }
        guard let colonIndex = line.firstIndex(of: colon) else { return .failure(.noColon) }
        let name = line[line.startIndex..<colonIndex]
        if let last = name.last, isWhitespace(last) { return .failure(.whitespaceBeforeColon) }
        guard isToken(name) else { return .failure(.invalidName) }
        var value = line[(colonIndex + 1)...]
        guard value.allSatisfy(isFieldValueCharacter) else { return .failure(.invalidValue) }
        while let byte = value.first, isWhitespace(byte) { value.removeFirst() }
        while let byte = value.last, isWhitespace(byte) { value.removeLast() }
        return .success((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
    }

    // MARK: Request line

    /// The parts of a valid request line. `target` is in origin-form (or `*`).
    struct RequestLine: Equatable {
        var method: String
        var target: String
        var version: HTTPVersion
    }

    /// Parses `method SP request-target SP HTTP-version` (without its CRLF).
    static func parseRequestLine(_ line: ArraySlice<UInt8>) -> Result<RequestLine, HTTPParseError> {
        let parts = line.split(separator: space, maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[1].isEmpty else { return .failure(.malformedRequestLine) }
        let (methodBytes, targetBytes, versionBytes) = (parts[0], parts[1], parts[2])
        guard isToken(methodBytes) else { return .failure(.invalidMethod) }
        let method = String(decoding: methodBytes, as: UTF8.self)
        let version: HTTPVersion
        switch parseVersion(versionBytes) {
        case .success(let parsed): version = parsed
        case .failure(let error): return .failure(error)
        }
        guard let target = originFormTarget(targetBytes, method: method) else { return .failure(.invalidTarget) }
        return .success(RequestLine(method: method, target: target, version: version))
    }

    /// `HTTP/<digit>.<digit>`; only 1.0 and 1.1 are supported.
    static func parseVersion(_ bytes: ArraySlice<UInt8>) -> Result<HTTPVersion, HTTPParseError> {
        let bytes = Array(bytes)
        guard bytes.count == 8, bytes[0..<5].elementsEqual("HTTP/".utf8), bytes[6] == UInt8(ascii: "."),
            let major = digitValue(bytes[5]), let minor = digitValue(bytes[7])
        else { return .failure(.malformedVersion) }
        let version = HTTPVersion(major: major, minor: minor)
        guard version == .http1_0 || version == .http1_1 else { return .failure(.unsupportedVersion(version)) }
        return .success(version)
    }

    static func digitValue(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    /// Reduces a request target to origin-form: `/path?query` as is, `*` for OPTIONS, and
    /// `http(s)://authority/path?query` to `/path?query`. Nil for anything else.
    static func originFormTarget(_ bytes: ArraySlice<UInt8>, method: String) -> String? {
        // Visible ASCII only: no controls, spaces or raw non-ASCII bytes (they must be percent-encoded).
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }), let first = bytes.first else { return nil }
        if first == UInt8(ascii: "/") { return String(decoding: bytes, as: UTF8.self) }
        if bytes.elementsEqual("*".utf8) { return method == "OPTIONS" ? "*" : nil }
        let lowered = bytes.map { $0 | (($0 >= 0x41 && $0 <= 0x5A) ? 0x20 : 0) }
        let schemeLength: Int
        if lowered.starts(with: "http://".utf8) {
            schemeLength = 7
        } else if lowered.starts(with: "https://".utf8) {
            schemeLength = 8
        } else {
            return nil
        }
        let afterScheme = bytes.dropFirst(schemeLength)
        let authorityEnd = afterScheme.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }
            ?? afterScheme.endIndex
        guard authorityEnd > afterScheme.startIndex else { return nil }
        let rest = afterScheme[authorityEnd...]
        if rest.first == UInt8(ascii: "/") { return String(decoding: rest, as: UTF8.self) }
        return "/" + String(decoding: rest, as: UTF8.self)
    }
}
