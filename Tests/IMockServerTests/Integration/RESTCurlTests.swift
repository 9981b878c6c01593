import Foundation
import Testing
import IMockCore
import IMockServer
import IMockTestSupport

/// The REST API driven by curl, a client we did not write, against a live server.
@Suite("REST over loopback with curl")
struct RESTCurlTests {
    private func curl(_ arguments: [String]) async throws -> (status: Int, body: [String: Any]) {
        let result = try await ExternalCommand.run("curl", ["-s", "-w", "\n%{http_code}"] + arguments)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.last ?? "") ?? -1
        let body = lines.dropLast().joined(separator: "\n")
        let json = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
        return (status, json)
    }

    @Test("authorized app: app token, register, user token, read the user back; errors in the Easemob envelope")
    func registerAndReadBack() async throws {
        let server = try InProcessServer(apps: [.init(key: "acme#chat", registrationMode: .authorized)])
        let (clientID, clientSecret) = try await server.credentials(of: "acme#chat")
        let base = server.baseURL + "/acme/chat"
        let json = ["-H", "Content-Type: application/json"]

        let refused = try await curl(json + ["-X", "POST", "\(base)/users", "-d", #"{"username":"bob","password":"pw"}"#])
        #expect(refused.status == 401)
        #expect(refused.body["error"] as? String == "unauthorized")

        let appToken = try await curl(json + [
            "-X", "POST", "\(base)/token",
            "-d", #"{"grant_type":"client_credentials","client_id":"\#(clientID)","client_secret":"\#(clientSecret)"}"#,
        ])
        #expect(appToken.status == 200)
        let token = try #require(appToken.body["access_token"] as? String)
        #expect(token.hasPrefix("YWMt"))
        let auth = ["-H", "Authorization: Bearer \(token)"]

        let created = try await curl(json + auth + ["-X", "POST", "\(base)/users", "-d", #"{"username":"Bob","password":"pw"}"#])
        #expect(created.status == 200)
        let entities = try #require(created.body["entities"] as? [[String: Any]])
        #expect(entities.first?["username"] as? String == "bob")

        let duplicate = try await curl(json + auth + ["-X", "POST", "\(base)/users", "-d", #"{"username":"bob","password":"pw"}"#])
        #expect(duplicate.status == 400)
        #expect(duplicate.body["error"] as? String == "duplicate_unique_property_exists")

        let userToken = try await curl(json + [
            "-X", "POST", "\(base)/token", "-d", #"{"grant_type":"password","username":"bob","password":"pw"}"#,
        ])
        #expect(userToken.status == 200)
        #expect((userToken.body["user"] as? [String: Any])?["username"] as? String == "bob")

        let read = try await curl(auth + ["\(base)/users/bob"])
        #expect(read.status == 200)
        #expect((read.body["entities"] as? [[String: Any]])?.first?["username"] as? String == "bob")

        let broken = try await curl(json + auth + ["-X", "POST", "\(base)/users", "-d", "{not json"])
        #expect(broken.status == 400)
        #expect(broken.body["error"] as? String == "json_parse")
        for field in ["error", "exception", "timestamp", "duration", "error_description"] {
            #expect(broken.body[field] != nil, "error body lacks \(field)")
        }

        let unknownApp = try await curl(auth + [server.baseURL + "/nope/none/users/bob"])
        #expect(unknownApp.status == 404)
        #expect(unknownApp.body["error"] as? String == "organization_application_not_found")
        await server.stop()
    }

    @Test("a body over the limit gets 413 in the Easemob envelope and registers nobody")
    func oversizedBody() async throws {
        let server = try InProcessServer(apps: [.init(key: "acme#open", registrationMode: .open)])
        let directory = try ExternalCommand.temporaryDirectory()
        let big = #"{"username":"eve","password":""# + String(repeating: "x", count: 2 << 20) + #""}"#
        try big.write(toFile: directory + "/big.json", atomically: true, encoding: .utf8)
        let response = try await curl([
            "-H", "Content-Type: application/json", "-X", "POST", "--data-binary", "@\(directory)/big.json",
            server.baseURL + "/acme/open/users",
        ])
        #expect(response.status == 413)
        #expect(response.body["error_description"] != nil)
        let count = try await server.onLoop { server in
            (try? server.directory.users(in: try! AppKey(parsing: "acme#open"), limit: 10, cursor: nil))?.users.count ?? -1
        }
        #expect(count == 0)
        await server.stop()
    }
}
