import IMockCommon

/// An HTTP protocol version such as 1.1.
public struct HTTPVersion: Sendable, Hashable, CustomStringConvertible {
    public var major: Int
    public var minor: Int
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)
    public var description: String { "HTTP/\(major).\(minor)" }
}

/// A complete HTTP request as parsed from the wire.
public struct HTTPRequest: Sendable, Equatable {
    /// The method as sent, e.g. `GET` (methods are case-sensitive).
    public var method: String
    /// The request target exactly as sent, e.g. `/org/app/users?limit=10`.
    public var target: String
    /// The percent-decoded path part of the target, e.g. `/org/app/users`.
    public var path: String
    /// The query parameters in order, percent-decoded (`+` is a space).
    public var query: [(name: String, value: String)]
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(
        method: String, target: String, version: HTTPVersion = .http1_1,
        headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []
    ) {
        self.method = method
        self.target = target
        let parts = HTTPRequest.splitTarget(target)
        self.path = parts.path
        self.query = parts.query
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// The first value of the query parameter `name`.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// Whether the connection stays open after this request (HTTP/1.1 default,
    /// HTTP/1.0 only with `Connection: keep-alive`).
    public var keepAlive: Bool {
        if headers.hasToken("close", in: "Connection") { return false }
        if version == .http1_0 { return headers.hasToken("keep-alive", in: "Connection") }
        return true
    }

    public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.version == rhs.version
            && lhs.headers == rhs.headers && lhs.body == rhs.body
    }

    /// Splits a request target into its decoded path and query parameters.
    static func splitTarget(_ target: String) -> (path: String, query: [(name: String, value: String)]) {
        let bytes = Array(target.utf8)
        let queryStart = bytes.firstIndex(of: UInt8(ascii: "?"))
        let rawPath = bytes[..<(queryStart ?? bytes.endIndex)]
        let path = percentDecode(rawPath, plusIsSpace: false) ?? String(decoding: rawPath, as: UTF8.self)
        guard let queryStart else { return (path, []) }
        var query: [(name: String, value: String)] = []
        for pair in bytes[(queryStart + 1)...].split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let eq = pair.firstIndex(of: UInt8(ascii: "="))
            let rawName = pair[..<(eq ?? pair.endIndex)]
            let rawValue = eq.map { pair[($0 + 1)...] } ?? []
            let name = percentDecode(rawName, plusIsSpace: true) ?? String(decoding: rawName, as: UTF8.self)
            let value = percentDecode(rawValue, plusIsSpace: true) ?? String(decoding: rawValue, as: UTF8.self)
            query.append((name: name, value: value))
        }
        return (path, query)
    }

    /// Decodes `%XX` escapes; returns nil for a malformed escape or invalid UTF-8.
    static func percentDecode<C: Collection>(_ raw: C, plusIsSpace: Bool) -> String? where C.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var iterator = raw.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(HexDigit.value), let low = iterator.next().flatMap(HexDigit.value)
                else { return nil }
                out.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                out.append(UInt8(ascii: " "))
            default:
                out.append(byte)
            }
        }
        return String(validating: out, as: UTF8.self)
    }
}
