import IMockCommon
import IMockCore
import IMockServer
import IMockTestSupport
import Testing

/// Every integer that comes from outside is range-checked: the edges of 64-bit arithmetic, and
/// numbers that are not integers at all, get a 400 naming the field and never crash the server
/// (issue: a single cursor of 2⁶³ − 1 used to kill it).
@Suite("Integer edges in every field")
struct IntegerEdgeTests {
    /// JSON texts outside the range of every integer field imock has.
    static let edges = [
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
        "18446744073709551616", "1e308", "-1e308", "1.5", #""12""#, "true", "[]", "{}",
    ]

    /// A route and the body (or query) it takes, with `X` where the edge value goes.
    struct Field: Sendable, CustomTestStringConvertible {
        let method: String
        let path: String
        let body: String?
        let name: String
        var testDescription: String { "\(method) \(path) \(name)" }
    }

    static let controlFields: [Field] = [
        Field(method: "POST", path: "/_imock/clock/advance", body: #"{"ms":X}"#, name: "ms"),
        Field(method: "POST", path: "/_imock/clock/set", body: #"{"epochMs":X}"#, name: "epochMs"),
        Field(method: "POST", path: "/_imock/faults", body: #"{"kind":"drop","app":"acme#chat","durationMs":X}"#, name: "durationMs"),
        Field(method: "POST", path: "/_imock/faults", body: #"{"kind":"delay","app":"acme#chat","ms":X}"#, name: "ms"),
        Field(method: "POST", path: "/_imock/faults", body: #"{"kind":"dropFrames","app":"acme#chat","count":X}"#, name: "count"),
        Field(method: "POST", path: "/_imock/faults", body: #"{"kind":"drop","connection":X}"#, name: "connection"),
        Field(method: "POST", path: "/_imock/faults", body: #"{"kind":"drop","app":"acme#chat","probability":X}"#, name: "probability"),
        Field(method: "POST", path: "/_imock/apps/acme/chat/kick", body: #"{"user":"edge","code":X}"#, name: "code"),
        Field(method: "POST", path: "/_imock/apps/acme/chat/tokens/revoke", body: #"{"tokenId":X}"#, name: "tokenId"),
        Field(method: "POST", path: "/_imock/apps/acme/chat/settings", body: #"{"activeUserLimit":X}"#, name: "activeUserLimit"),
        Field(method: "POST", path: "/_imock/apps/acme/chat/settings", body: #"{"restRateLimitPerSecond":X}"#, name: "restRateLimitPerSecond"),
        Field(method: "POST", path: "/_imock/apps/acme/chat/settings", body: #"{"defaultTokenTTLSeconds":X}"#, name: "defaultTokenTTLSeconds"),
        Field(method: "POST", path: "/acme/chat/token", body: #"{"grant_type":"password","username":"edge","password":"pw","ttl":X}"#, name: "ttl"),
    ]

    static let seedFields = ["sequence", "created", "modified", "minimumTokenId"]

    @Test("control and REST integer fields refuse 64-bit edges and non-integers with 400 naming the field", arguments: controlFields)
    func bodyFields(_ field: Field) async throws {
        let fixture = try SessionFixture()
        _ = try fixture.userToken("edge")
        for edge in Self.edges {
            let body = field.body?.replacing("X", with: edge)
            let answer = try fixture.control(field.method, field.path, json: body)
            #expect(answer.status == 400, "\(field.name)=\(edge): \(answer)")
            let description = answer.body["error_description"]?.string ?? ""
            #expect(description.contains(field.name), "\(field.name)=\(edge): \(description)")
        }
        #expect(try fixture.control("GET", "/_imock/health").status == 200)
        await fixture.stop()
    }

    @Test("seed user fields refuse 64-bit edges with the member's path", arguments: seedFields)
    func seedUserFields(_ name: String) async throws {
        let fixture = try SessionFixture()
        for edge in Self.edges {
            let seed = #"{"version":1,"apps":[{"appKey":"edge#seed","users":[{"username":"u","\#(name)":\#(edge)}]}]}"#
            let answer = try fixture.control("POST", "/_imock/seed", json: seed)
            #expect(answer.status == 400, "\(name)=\(edge): \(answer)")
            #expect(answer.body["error_description"]?.string?.contains("apps[0].users[0].\(name)") == true, "\(answer)")
        }
        await fixture.stop()
    }

    @Test("the crashes found from outside now answer 400 and the server keeps serving")
    func crashesFromOutside() async throws {
        let fixture = try SessionFixture()
        let appToken = try await fixture.appToken()
        // A users cursor of 2⁶³ − 1 (`imock-users:9223372036854775807`).
        let cursor = try fixture.http.request(
            "GET", "/acme/chat/users?cursor=aW1vY2stdXNlcnM6OTIyMzM3MjAzNjg1NDc3NTgwNw", token: appToken)
        #expect(cursor.status == 400, "\(cursor)")
        // The clock set just short of 2⁶³, then a /ws connection.
        let set = try fixture.control("POST", "/_imock/clock/set", json: #"{"epochMs":9223372036854775000}"#)
        #expect(set.status == 400, "\(set)")
        #expect(try fixture.control("POST", "/_imock/clock/advance", json: #"{"ms":9223372036854775000}"#).status == 400)
        // A fault lasting 10¹³ ms on the flowing clock.
        let fault = try fixture.control(
            "POST", "/_imock/faults", json: #"{"kind":"blackhole","app":"acme#chat","durationMs":10000000000000}"#)
        #expect(fault.status == 400, "\(fault)")
        // Seeds whose sequences leave no room: 2⁶³ − 1 and 2⁶³ − 2.
        for sequence in ["9223372036854775807", "9223372036854775806"] {
            let seed = #"{"version":1,"apps":[{"appKey":"edge#seq","registrationMode":"open","users":[{"username":"u","sequence":\#(sequence)}]}]}"#
            #expect(try fixture.control("POST", "/_imock/seed", json: seed).status == 400)
        }
        // The largest sequence a seed may give: registration then says the numbers are used up.
        let full = #"{"version":1,"apps":[{"appKey":"edge#full","registrationMode":"open","users":[{"username":"u","sequence":\#(ValueLimits.maximumCounter)}]}]}"#
        #expect(try fixture.control("POST", "/_imock/seed", json: full).status == 200)
        let registration = try fixture.http.request("POST", "/edge/full/users", json: #"{"username":"v","password":"pw"}"#)
        #expect(registration.status == 400, "\(registration)")
        // Still serving: a device logs in.
        let token = try fixture.userToken("alive")
        _ = try await fixture.device("alive", token: token, uuid: "a")
        await fixture.stop()
    }

    @Test("frame integers (customOSType, platformId) beyond 64 bits get error 110 naming the field")
    func frameFields() async throws {
        let fixture = try SessionFixture()
        let client = try await ProtocolClient.connect(loop: fixture.clientLoop, port: fixture.server.port)
        for (field, edge) in [("customOSType", "9223372036854775807"), ("customOSType", "1e308"), ("platformId", "18446744073709551616")] {
            client.send(#"{"op":"login","id":"l","appKey":"acme#chat","user":"u","token":"t","device":{"uuid":"x","\#(field)":\#(edge)}}"#)
            let reply = await client.next(op: "error")
            #expect(reply["code"]?.int == 110, "\(reply)")
            #expect(reply["field"]?.string == "device.\(field)", "\(reply)")
        }
        await fixture.stop()
    }
}
