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
/// server and reference clients share that one loop, so every event has one total order.
final class ScenarioServer: Sendable {
    let loop: EventLoop
    let link: ServerLink
    /// The WebSocket endpoint devices connect to.
    let socketEndpoint: ServerEndpoint
    /// The share of a token's life after which the server warns (for the clock's stop points).
    let tokenWarningPercent: Int
    private let server: LoopBound<MockServer>?

    private init(loop: EventLoop, link: ServerLink, socketEndpoint: ServerEndpoint, tokenWarningPercent: Int, server: LoopBound<MockServer>?) {
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
        do { loop = try EventLoop() } catch { throw ScenarioFailure("cannot create an event loop: \(error)") }
        switch target {
        case .inProcess:
            var configuration = ServerConfiguration()
            configuration.port = 0
            configuration.clockMode = .virtual
            configuration.adminSecret = "harness-" + String(random.next(), radix: 36)
            configuration.randomSeed = seedRandom
            configuration.tokenWarningPercent = tokenWarningPercent
            if let maxWebSocketOutputBytes { configuration.maxWebSocketOutputBytes = maxWebSocketOutputBytes }
            let server = MockServer(
                loop: loop, configuration: configuration,
                directory: Directory(settings: DirectorySettings(passwordIterations: 10, random: configuration.makeRandomSource())))
            let port: UInt16
            do { port = try server.start().port } catch { throw ScenarioFailure("cannot start the in-process server: \(error)") }
            loop.start()
            let http = ServerEndpoint(host: "127.0.0.1", port: port, path: "/")
            return ScenarioServer(
                loop: loop, link: ServerLink(loop: loop, endpoint: http, adminSecret: configuration.adminSecret!),
                socketEndpoint: ServerEndpoint(host: "127.0.0.1", port: port), tokenWarningPercent: tokenWarningPercent,
                server: LoopBound(server, on: loop))
        case .external(let url, let secret):
            let http: ServerEndpoint
            do { http = try ServerEndpoint(url: url) } catch { throw ScenarioFailure("--server \(url): \(error)") }
            loop.start()
            let link = ServerLink(loop: loop, endpoint: http, adminSecret: secret)
            let clock = try await link.control("GET", "clock")
            guard clock["frozen"]?.boolValue == true else {
                loop.stop()
                throw ScenarioFailure("the server at \(url) must run with --clock virtual (its clock flows)")
            }
            return ScenarioServer(
                loop: loop, link: link,
                socketEndpoint: ServerEndpoint(host: http.host, port: http.port, path: "/ws", secure: http.secure),
                tokenWarningPercent: tokenWarningPercent, server: nil)
        }
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
