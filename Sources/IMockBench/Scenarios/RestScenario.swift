import IMockCore
import IMockNet

/// `rest`: keep-alive connections each repeating the mix app token → register one user →
/// register a batch of 60 → user token by password → get user, for `--seconds`; requests/s
/// and p50/p99, overall and per call.
struct RestScenario: BenchScenario {
    let name = BenchScenarioName.rest
    let servers: [ServerKind] = [.imock, .python, .nginx]

    static let appKey = "bench#rest"
    static let batchSize = 60

    /// The calls of the mix, in order.
    enum Call: Int, CaseIterable {
        case appToken, register, registerBatch, userToken, getUser

        var part: String {
            switch self {
            case .appToken: "app-token"
            case .register: "register"
            case .registerBatch: "register-batch-\(RestScenario.batchSize)"
            case .userToken: "user-token"
            case .getUser: "get-user"
            }
        }
    }

    func run(on server: ServerKind?, _ context: ScenarioContext) async throws(BenchError) -> [ScenarioReport] {
        let kind = server ?? .imock
        let world = BenchWorld(apps: [(Self.appKey, 4, [])])
        let options = context.options
        let part = try await context.with(kind, world: world) { server throws(BenchError) in
            let app = world.app(Self.appKey)
            let result: Result<[BenchPart], BenchError> = await context.client.run { loop, finish in
                let mix = RestMix(
                    loop: loop, address: server.http, app: app, connections: options.connections, duration: options.duration)
                mix.run { finish($0) }
            }
            return try result.get()
        }
        return [
            ScenarioReport(
                scenario: name.rawValue, server: kind.rawValue, load: LoadSide.http,
                size: [("connections", options.connections), ("seconds", Int(options.duration.milliseconds / 1000))],
                parts: part)
        ]
    }
}

/// The load side of `rest`: each connection runs the mix in a loop until the time is up.
/// Loop-confined.
private final class RestMix {
    private let loop: EventLoop
    private let app: BenchWorld.AppSpec
    private let path: String
    private let connections: [HTTPLoadConnection]
    private let duration: Duration
    private var samples = [Samples](repeating: Samples(), count: RestScenario.Call.allCases.count)
    private var all = Samples()
    private var running = false
    private var failure: BenchError?
    private var started: Int64 = 0
    private var stopped: Int64 = 0
    private var open = 0
    private var idle = 0
    private var completion: ((Result<[BenchPart], BenchError>) -> Void)?

    init(loop: EventLoop, address: SocketAddress, app: BenchWorld.AppSpec, connections: Int, duration: Duration) {
        self.loop = loop
        self.app = app
        let parts = app.key.split(separator: "#")
        self.path = "/\(parts[0])/\(parts[1])"
        self.connections = (0..<connections).map { _ in HTTPLoadConnection(address: address) }
        self.duration = duration
    }

    func run(completion: @escaping (Result<[BenchPart], BenchError>) -> Void) {
        self.completion = completion
        for connection in connections {
            connection.open(loop: loop) { [self] result in
                if case .failure(let error) = result { return fail(error) }
                open += 1
                if open == connections.count { begin() }
            }
        }
    }

    private func begin() {
        running = true
        started = monotonicNanoseconds()
        loop.scheduleTimer(after: duration) { [self] in
            running = false
            stopped = monotonicNanoseconds()
        }
        for (index, connection) in connections.enumerated() {
            cycle(connection, client: index, round: 0, call: .appToken, appToken: nil)
        }
    }

    /// One call of the mix on `connection`, then the next.
    private func cycle(
        _ connection: HTTPLoadConnection, client: Int, round: Int, call: RestScenario.Call, appToken: String?
    ) {
        guard running, failure == nil else {
            idle += 1
            if idle == connections.count { finish() }
            return
        }
        let user = "r\(client)-\(round)"
        let request: (method: String, path: String, bearer: String?, body: JSONValue?)
        switch call {
        case .appToken:
            request = ("POST", "\(path)/token", nil,
                       ["grant_type": "client_credentials", "client_id": .string(app.clientID),
                        "client_secret": .string(app.clientSecret)])
        case .register:
            request = ("POST", "\(path)/users", appToken, ["username": .string(user), "password": "bench-password"])
        case .registerBatch:
            let batch = (0..<RestScenario.batchSize).map { index -> JSONValue in
                ["username": .string("\(user)-\(index)"), "password": "bench-password"]
            }
            request = ("POST", "\(path)/users", appToken, .array(batch))
        case .userToken:
            request = ("POST", "\(path)/token", nil,
                       ["grant_type": "password", "username": .string(user), "password": "bench-password"])
        case .getUser:
            request = ("GET", "\(path)/users/\(user)", appToken, nil)
        }
        let sent = monotonicNanoseconds()
        connection.request(request.method, request.path, bearer: request.bearer, json: request.body?.encoded()) {
            [self] result in
            let response: HTTPLoadConnection.Response
            switch result {
            case .success(let value): response = value
            case .failure(let error): return fail(error)
            }
            guard response.status == 200 else {
                return fail(BenchError(
                    "\(request.method) \(request.path) answered \(response.status): \(String(decoding: response.body.prefix(300), as: UTF8.self))"))
            }
            let elapsed = milliseconds(from: sent, to: monotonicNanoseconds())
            if running {
                samples[call.rawValue].add(elapsed)
                all.add(elapsed)
            }
            var token = appToken
            if call == .appToken {
                token = (try? JSONValue.parse(response.body))?["access_token"]?.stringValue
                guard token != nil else { return fail(BenchError("the app token response has no access_token")) }
            }
            if let next = RestScenario.Call(rawValue: call.rawValue + 1) {
                cycle(connection, client: client, round: round, call: next, appToken: token)
            } else {
                cycle(connection, client: client, round: round + 1, call: .appToken, appToken: token)
            }
        }
    }

    private func fail(_ error: BenchError) {
        guard failure == nil else { return }
        failure = error
        running = false
        finish()
    }

    private func finish() {
        guard let completion else { return }
        self.completion = nil
        for connection in connections { connection.close() }
        if let failure { return completion(.failure(failure)) }
        let seconds = Double(stopped - started) / 1e9
        var parts = [BenchPart(name: "mix", figures: BenchFigure.timed(all, perSecond: Double(all.count) / seconds, "requests"))]
        for call in RestScenario.Call.allCases {
            let calls = samples[call.rawValue]
            parts.append(
                BenchPart(name: call.part, figures: BenchFigure.timed(calls, perSecond: Double(calls.count) / seconds, "requests")))
        }
        completion(.success(parts))
    }
}
