import Testing
import IMockTestSupport

/// Every kick a REST change causes reaches the right device over a real socket: the `kicked`
/// frame with the code, then the WebSocket close with 4000 + code.
@Suite("Session kicks over loopback")
struct SessionKickTests {
    private func expectKicked(_ client: ProtocolClient, code: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
        let kicked = await client.next(op: "kicked")
        #expect(kicked["op"]?.string == "kicked", "\(kicked)", sourceLocation: sourceLocation)
        #expect(kicked["code"]?.int == code, sourceLocation: sourceLocation)
        let closed = await client.next(op: "<closed>")
        #expect(closed["code"]?.int == 4000 + code, "\(closed)", sourceLocation: sourceLocation)
    }

    @Test("REST disconnect of one resource → 217 to that device only; of all → 217 to every device")
    func disconnect() async throws {
        let fixture = try SessionFixture()
        let admin = try await fixture.appToken()
        let token = try fixture.userToken("alice")
        let phone = try await fixture.device("alice", token: token, os: "ios", uuid: "phone")
        let laptop = try await fixture.device("alice", token: token, os: "windows", uuid: "laptop")
        let one = try fixture.http.request("DELETE", "/acme/chat/users/alice/disconnect/ios_phone", token: admin)
        #expect(one.status == 200, "\(one)")
        await expectKicked(phone, code: 217)
        laptop.send(#"{"op":"devices","id":"d"}"#)
        let devices = await laptop.next(op: "devices.ok")
        #expect(devices["devices"]?.array?.count == 1)
        let all = try fixture.http.request("GET", "/acme/chat/users/alice/disconnect", token: admin)
        #expect(all.status == 200)
        await expectKicked(laptop, code: 217)
        await fixture.stop()
    }

    @Test("password change → 216 to every device; deactivate → 305; delete → 207")
    func userChanges() async throws {
        let fixture = try SessionFixture()
        let admin = try await fixture.appToken()
        let token = try fixture.userToken("bob")
        let first = try await fixture.device("bob", token: token, os: "android", uuid: "a")
        let second = try await fixture.device("bob", token: token, os: "web", uuid: "w")
        let changed = try fixture.http.request("PUT", "/acme/chat/users/bob/password", json: #"{"newpassword":"pw2"}"#, token: admin)
        #expect(changed.status == 200, "\(changed)")
        await expectKicked(first, code: 216)
        await expectKicked(second, code: 216)

        let carolToken = try fixture.userToken("carol")
        let carol = try await fixture.device("carol", token: carolToken, uuid: "c")
        #expect(try fixture.http.request("POST", "/acme/chat/users/carol/deactivate", token: admin).status == 200)
        await expectKicked(carol, code: 305)
        // A deactivated user cannot log in again.
        let retry = try await ProtocolClient.connect(loop: fixture.clientLoop, port: fixture.server.port)
        retry.login(app: SessionFixture.app, user: "carol", token: carolToken, uuid: "c")
        let refused = await retry.next(op: "login.error")
        #expect(refused["code"]?.int == 305)

        let daveToken = try fixture.userToken("dave")
        let dave = try await fixture.device("dave", token: daveToken, uuid: "d")
        #expect(try fixture.http.request("DELETE", "/acme/chat/users/dave", token: admin).status == 200)
        await expectKicked(dave, code: 207)
        await fixture.stop()
    }

    @Test("a fifth mobile device kicks the earliest with 206, carrying the new device's name and extension")
    func multiDeviceLimit() async throws {
        let fixture = try SessionFixture()
        let token = try fixture.userToken("erin")
        var phones: [ProtocolClient] = []
        for index in 1...4 {
            phones.append(try await fixture.device("erin", token: token, os: index % 2 == 0 ? "android" : "ios", uuid: "p\(index)"))
        }
        let desktop = try await fixture.device("erin", token: token, os: "macos", uuid: "mac")
        _ = try await fixture.device("erin", token: token, os: "ios", uuid: "p5", name: "New Phone", extensionInfo: "hello")
        let kicked = await phones[0].next(op: "kicked")
        #expect(kicked["code"]?.int == 206)
        #expect(kicked["by"]?["deviceName"]?.string == "New Phone")
        #expect(kicked["by"]?["extension"]?.string == "hello")
        #expect((await phones[0].next(op: "<closed>"))["code"]?.int == 4206)
        // The desktop group was untouched: it still answers.
        desktop.send(#"{"op":"devices","id":"x"}"#)
        #expect((await desktop.next(op: "devices.ok"))["devices"]?.array?.count == 5)
        await fixture.stop()
    }

    @Test("login errors: bad token 104, another user's token 202, then close 4000+code")
    func loginErrors() async throws {
        let fixture = try SessionFixture()
        let aliceToken = try fixture.userToken("alice")
        _ = try fixture.userToken("mallory")
        for (user, token, code) in [("alice", "YWMtnot-a-token", 104), ("mallory", aliceToken, 202)] {
            let client = try await ProtocolClient.connect(loop: fixture.clientLoop, port: fixture.server.port)
            client.login(app: SessionFixture.app, user: user, token: token, uuid: "u")
            let error = await client.next(op: "login.error")
            #expect(error["code"]?.int == code, "\(user): \(error)")
            #expect((await client.next(op: "<closed>"))["code"]?.int == 4000 + code)
        }
        await fixture.stop()
    }
}
