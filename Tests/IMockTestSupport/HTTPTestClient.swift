import FoundationEssentials
import IMockNet

/// One-shot JSON requests over a fresh loopback connection, for tests of the REST API.
public struct HTTPTestClient: Sendable {
    public let port: UInt16

    public init(port: UInt16) { self.port = port }

    /// Sends `method path` with an optional JSON body and bearer token; returns the status and
    /// the parsed JSON body (an empty object when the body is not a JSON object).
    public func request(
        _ method: String, _ path: String, json: String? = nil, token: String? = nil
    ) throws -> (status: Int, body: [String: JSONAny]) {
        let socket = try RawSocket(port: port)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        let body = Array((json ?? "").utf8)
        if json != nil { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        try socket.send(Array((head + "\r\n").utf8) + body)
        let response = try socket.receiveResponse()
        let object = (try? JSONDecoder().decode([String: JSONAny].self, from: Data(response.body))) ?? [:]
        return (response.head.status, object)
    }
}

extension HTTPTestClient {
    /// Sends `method path` with the given extra header lines and raw body; returns the whole
    /// response (status, head fields, body bytes).
    public func raw(
        _ method: String, _ path: String, headers: [String] = [], body: [UInt8] = []
    ) throws -> (head: HTTPResponseHead, body: [UInt8]) {
        let socket = try RawSocket(port: port)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for line in headers { head += line + "\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        try socket.send(Array((head + "\r\n").utf8) + body)
        return try socket.receiveResponse()
    }

    /// The body of `method path` as text (Prometheus metrics, event streams …).
    public func requestText(_ method: String, _ path: String, token: String? = nil) throws -> String {
        let response = try raw(method, path, headers: token.map { ["Authorization: Bearer \($0)"] } ?? [])
        return String(decoding: response.body, as: UTF8.self)
    }

    /// Registers `user` with password "pw" in the open-registration app at `appPath` (e.g.
    /// `/acme/chat`) unless `register` is false, and returns a password-grant user token with
    /// `ttl` seconds.
    public func userToken(appPath: String, user: String, ttl: Int = 3600, register: Bool = true) throws -> String {
        if register {
            let created = try request("POST", "\(appPath)/users", json: #"{"username":"\#(user)","password":"pw"}"#)
            guard created.status == 200 else { throw FixtureFailure(description: "register \(user): \(created)") }
        }
        let token = try request(
            "POST", "\(appPath)/token",
            json: #"{"grant_type":"password","username":"\#(user)","password":"pw","ttl":\#(ttl)}"#)
        guard let value = token.body["access_token"]?.string else {
            throw FixtureFailure(description: "no token for \(user): \(token)")
        }
        return value
    }
}

/// Any JSON value, for reading response bodies in tests.
public enum JSONAny: Decodable, Sendable, Equatable {
    case null, bool(Bool), number(Double), string(String), array([JSONAny]), object([String: JSONAny])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONAny].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONAny].self)) }
    }

    public var string: String? { if case .string(let value) = self { value } else { nil } }
    public var int: Int? { if case .number(let value) = self { Int(value) } else { nil } }
    public var object: [String: JSONAny]? { if case .object(let value) = self { value } else { nil } }
    public var array: [JSONAny]? { if case .array(let value) = self { value } else { nil } }
    public subscript(key: String) -> JSONAny? { object?[key] }
}
