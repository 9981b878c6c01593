import IMockCommon
import FoundationEssentials
import IMockCore
import IMockNet
import IMockServer
import IMockTestSupport
import Synchronization

/// A live server with two open apps (acme#chat, other#chat) and an optional `--seed-random`,
/// for the fault tests.
final class FaultFixture: @unchecked Sendable {
    let loop: EventLoop
    let server: MockServer
    let http: HTTPTestClient
    let clientLoop: EventLoop
    let port: UInt16
    private let owner: ServerLoopOwner

    init(clock: Timeline.Mode = .system, seed: UInt64? = nil) throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.apps = [.init(key: "acme#chat", registrationMode: .open), .init(key: "other#chat", registrationMode: .open)]
        configuration.clockMode = clock
        configuration.sessionIdleTimeout = PatientTimeouts.sessionIdle
        configuration.adminSecret = InProcessServer.adminSecret
        configuration.randomSeed = seed
        let directory = try configuration.makeDirectory(settings: DirectorySettings(passwordIterations: 10), nowMs: SystemClock().nowMs)
        loop = try EventLoop()
        server = MockServer(loop: loop, configuration: configuration, directory: directory)
        port = try server.start().port
        owner = ServerLoopOwner(loop: loop, server: server)
        loop.start()
        http = HTTPTestClient(port: port)
        clientLoop = try EventLoop()
        clientLoop.start()
    }

    /// A control-API call with the admin secret.
    func control(_ method: String, _ path: String, json: String? = nil) throws -> (status: Int, body: [String: JSONAny]) {
        try http.request(method, path, json: json, token: InProcessServer.adminSecret)
    }

    /// Posts a fault; returns the answer.
    func fault(_ json: String) throws -> (status: Int, body: [String: JSONAny]) {
        try control("POST", "/_imock/faults", json: json)
    }

    /// Registers `user` in `app` and logs a device in (after `login.ok`, or the raw client when
    /// `waitForLogin` is false).
    func device(
        _ user: String, app: String = "acme#chat", uuid: String = "d1", sync: [String] = [], waitForLogin: Bool = true
    ) async throws -> ProtocolClient {
        let path = "/" + app.split(separator: "#").joined(separator: "/")
        _ = try http.request("POST", "\(path)/users", json: #"{"username":"\#(user)","password":"pw"}"#)
        let token = try http.request(
            "POST", "\(path)/token", json: #"{"grant_type":"password","username":"\#(user)","password":"pw"}"#)
        let client = try await ProtocolClient.connect(loop: clientLoop, port: port)
        let syncList = sync.map { "\"\($0)\"" }.joined(separator: ",")
        client.send(
            #"{"op":"login","id":"login","appKey":"\#(app)","user":"\#(user)","token":"\#(token.body["access_token"]?.string ?? "")","#
                + #""device":{"os":"ios","name":"phone","uuid":"\#(uuid)","extension":""},"sync":[\#(syncList)]}"#)
        if waitForLogin {
            var reply = await client.next()
            while !["login.ok", "login.error"].contains(reply["op"]?.string ?? ""), reply["op"]?.string?.hasPrefix("<") == false {
                reply = await client.next()
            }
            guard reply["op"]?.string == "login.ok" else {
                throw FixtureFailure(description: "login of \(user) failed: \(reply) (token answer \(token))")
            }
        }
        return client
    }

    /// The connection id of `user`'s first live session in acme#chat.
    func connectionID(of user: String, app: String = "acme/chat") throws -> Int {
        let sessions = try control("GET", "/_imock/apps/\(app)/sessions").body["sessions"]?.array ?? []
        return sessions.first { $0["user"]?.string == user }?["connection"]?.int ?? -1
    }

    func stop() async {
        clientLoop.stop()
        let server = UncheckedBox(server)
        await owner.stop { server.value.shutdown() }
    }
}

/// Reads the next frame in the background, so a test can check that nothing arrived within a
/// bounded wait without cancelling (and so ending) the client's stream.
final class PendingFrame: Sendable {
    let task: Task<[String: JSONAny], Never>

    init(_ client: ProtocolClient) {
        let box = Box()
        task = Task { [box] in
            let frame = await client.next()
            box.flag.store(true, ordering: .sequentiallyConsistent)
            return frame
        }
        self.boxed = box
    }

    private let boxed: Box
    private final class Box: Sendable { let flag = Atomic<Bool>(false) }

    var hasArrived: Bool { boxed.flag.load(ordering: .sequentiallyConsistent) }
}
