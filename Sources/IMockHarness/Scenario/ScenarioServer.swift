import IMockClient
import IMockCommon
import IMockCore
import IMockNet
import IMockServer

/// Where scenarios run: a server of their own in this process on a virtual clock, or one
/// external `imock serve --clock virtual` shared by every fixture (each in apps of its own).
public enum ServerTarget: Sendable, Equatable {
    /// A fresh in-process server per fixture.
    case inProcess
    /// An external server, reached through its control API.
    case external(url: String, adminSecret: String)
}

/// The server of one scenario and the event loop its devices and HTTP calls run on. In process,
/// server and reference clients share that one loop and one `Timeline`, so every event has one
/// total order.
final class ScenarioServer: Sendable {
    let loop: EventLoop
    let link: any ServerLink
    /// The WebSocket endpoint devices connect to.
    let socketEndpoint: ServerEndpoint
    /// The share of a token's life after which the server warns (for the clock's stop points).
    let tokenWarningPercent: Int
    private let server: LoopBound<MockServer>?

    private init(loop: EventLoop, link: any ServerLink, socketEndpoint: ServerEndpoint, tokenWarningPercent: Int, server: LoopBound<MockServer>?) {
        self.loop = loop
        self.link = link
        self.socketEndpoint = socketEndpoint
        self.tokenWarningPercent = tokenWarningPercent
        self.server = server
    }

    /// Starts the in-process server, or connects to the external one (whose clock must be virtual).
    /// The server's randomness is seeded by `seedRandom`; its admin secret is drawn from `random`
    /// (by default the first fixture's stream of `seedRandom`, ``RunSettings/random(forFixture:)``).
    /// `maxWebSocketOutputBytes`: the in-process server's output cap (`--max-ws-output-bytes`),
    /// its default when nil.
    static func start(
        _ target: ServerTarget, seedRandom: UInt64?, random: RandomSource? = nil, tokenWarningPercent: Int,
        maxWebSocketOutputBytes: Int? = nil
    ) async throws(ScenarioFailure)
        -> ScenarioServer
    {
        let random = random ?? RunSettings.random(seed: seedRandom, forFixture: 0)
        let loop: EventLoop
        do { loop = try EventLoop() } catch { throw .infrastructure("cannot create an event loop: \(error)") }
        switch target {
        case .inProcess:
            var configuration = ServerConfiguration()
            configuration.port = 0
            configuration.clockMode = .virtual
            configuration.adminSecret = "harness-" + String(random.next(), radix: 36)
            configuration.randomSeed = seedRandom
            configuration.tokenWarningPercent = tokenWarningPercent
            if let maxWebSocketOutputBytes { configuration.maxWebSocketOutputBytes = maxWebSocketOutputBytes }
            let timeline = Timeline(mode: .virtual, startMs: configuration.clockStartMs)
            let server = MockServer(
                loop: loop, configuration: configuration,
                directory: Directory(settings: DirectorySettings(passwordIterations: 10, random: configuration.makeRandomSource())),
                timeline: timeline)
            let port: UInt16
            do { port = try server.start().port } catch { throw .infrastructure("cannot start the in-process server: \(error)") }
            let bound = LoopBound(server, on: loop)
            loop.start()
            let http = ServerEndpoint(host: "127.0.0.1", port: port, path: "/")
            let link = InProcessLink(
                loop: loop, endpoint: http, adminSecret: configuration.adminSecret!, timeline: timeline, server: bound)
            return ScenarioServer(
                loop: loop, link: link, socketEndpoint: ServerEndpoint(host: "127.0.0.1", port: port),
                tokenWarningPercent: tokenWarningPercent, server: bound)
        case .external(let url, let secret):
            let http: ServerEndpoint
            do { http = try ServerEndpoint(url: url) } catch { throw .infrastructure("--server \(url): \(error)") }
            loop.start()
            let link: RemoteLink
            do throws(ScenarioFailure) {
                let startMs = try await check(RemoteLink(loop: loop, endpoint: http, adminSecret: secret, startMs: 0), url: url)
                link = RemoteLink(loop: loop, endpoint: http, adminSecret: secret, startMs: startMs)
            } catch {
                loop.stop()
                await loop.waitUntilStopped()
                throw error
            }
            return ScenarioServer(
                loop: loop, link: link,
                socketEndpoint: ServerEndpoint(host: http.host, port: http.port, path: "/ws", secure: http.secure),
                tokenWarningPercent: tokenWarningPercent, server: nil)
        }
    }

    /// Checks that the external server at `url` answers, takes the admin secret and runs a
    /// virtual clock, and returns where that clock stands; the failure says which does not hold.
    private static func check(_ link: RemoteLink, url: String) async throws(ScenarioFailure) -> Int64 {
        let answer = try await link.call("GET", "/_imock/clock", bearer: link.adminSecret)
        switch answer.status {
        case 200: break
        case 401: throw .infrastructure("the server at \(url) refused the admin secret (401): check --admin-secret")
        case 403: throw .infrastructure("the server at \(url) answers control calls from loopback only (403): run it with --control-remote")
        default:
            throw .infrastructure(
                "the server at \(url) is not an imock server: GET /_imock/clock answered \(answer.status) \(answer.body.encodedString)")
        }
        guard answer.body["frozen"]?.boolValue == true else {
            throw .infrastructure("the server at \(url) must run with --clock virtual (its clock flows)")
        }
        return answer.body["nowMs"]?.intValue ?? 0
    }

    /// Checks the external server of `target` once (reachable, admin secret, virtual clock, and
    /// the `--app-key` app exists); nil when it is usable or the target is in process, else why not.
    static func problem(with target: ServerTarget, appKey: String? = nil) async -> String? {
        guard case .external(let url, _) = target else { return nil }
        let server: ScenarioServer
        do throws(ScenarioFailure) {
            server = try await start(target, seedRandom: nil, tokenWarningPercent: 80)
        } catch {
            return error.message
        }
        var problem: String?
        if let appKey, let hash = appKey.firstIndex(of: "#") {
            let path = "/_imock/apps/\(appKey[..<hash])/\(appKey[appKey.index(after: hash)...])/settings"
            let status = (try? await server.link.call("GET", path, bearer: server.link.adminSecret))?.status
            if status != 200 { problem = "the server at \(url) has no app \(appKey) (--app-key): GET \(path) answered \(status.map(String.init) ?? "nothing")" }
        }
        await server.stop()
        return problem
    }

    /// The `ws://` URL devices connect to.
    var socketURL: String {
        "\(socketEndpoint.secure ? "wss" : "ws")://\(socketEndpoint.host.contains(":") ? "[\(socketEndpoint.host)]" : socketEndpoint.host):\(socketEndpoint.port)\(socketEndpoint.path)"
    }

    /// Stops the in-process server and the loop (devices must be shut down first).
    func stop() async {
        if let server { loop.execute { server.value.shutdown() } }
        loop.stop()
        await loop.waitUntilStopped()
    }
}
