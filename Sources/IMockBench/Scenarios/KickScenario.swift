import IMockCore
import IMockNet

/// `kick`: `--devices` devices logged in, four per user; then, each timed from the call (or
/// the login) to each kicked device's `kicked` frame:
/// - `rest-disconnect`: `GET …/users/{u}/disconnect` of users with four devices, one after another;
/// - `policy`: a fifth device of a user logs in and the group limit kicks the earliest;
/// - `app-disable`: the control API disables the app, kicking every session left;
/// - `one-user-disconnect`: `--devices` devices of one user, then one REST disconnect of them all.
struct KickScenario: BenchScenario {
    let name = BenchScenarioName.kick
    let servers: [ServerKind] = [.imock]

    static let devicesPerUser = 4
    /// Users of `rest-disconnect` and of `policy` (each).
    static let sampleUsers = 100
    static let watchTimeout: Duration = .seconds(10)

    func run(on server: ServerKind?, _ context: ScenarioContext) async throws(BenchError) -> [ScenarioReport] {
        let options = context.options
        let wire = context.easemobWire(for: .imock)
        let userCount = max(2, (options.devices + Self.devicesPerUser - 1) / Self.devicesPerUser)
        let world = BenchWorld(apps: [
            (LoginStormScenario.appKey, Self.devicesPerUser, BenchWorld.users(userCount)),
            (LoginStormScenario.oneUserAppKey, options.devices + 1, [LoginStormScenario.oneUser]),
        ])
        let parts = try await context.with(.imock, world: world) { server throws(BenchError) in
            try await runParts(server, world: world, wire: wire, context)
        }
        return [
            ScenarioReport(
                scenario: name.rawValue, server: ServerKind.imock.rawValue, dialect: wire.name, load: LoadSide.webSocket,
                size: [("devices", userCount * Self.devicesPerUser), ("devicesPerUser", Self.devicesPerUser)], parts: parts)
        ]
    }

    private func runParts(
        _ server: ServerUnderTest, world: BenchWorld, wire: any BenchWire.Type, _ context: ScenarioContext
    ) async throws(BenchError) -> [BenchPart] {
        let app = world.app(LoginStormScenario.appKey)
        let tokens = world.tokens(of: app.key)
        var logins: [BenchLogin] = []
        for (user, token) in zip(app.users, tokens) {
            for device in 0..<Self.devicesPerUser {
                logins.append(BenchLogin(appKey: app.key, user: user, token: token, deviceUUID: "\(user)-\(device)", os: "ios"))
            }
        }
        let wave = await context.client.logIn(logins, endpoint: server.sessions, wire: wire, inFlight: context.options.inFlight)
        let sample = min(Self.sampleUsers, app.users.count / 2)
        let http = server.http
        let rest: Result<(BenchPart, BenchPart, BenchPart), BenchError> = await context.client.run { loop, finish in
            let kicks = KickParts(loop: loop, http: http, world: world, devices: wave.devices.value)
            kicks.run(sample: sample, tokens: tokens, endpoint: server.sessions, wire: wire) { finish($0) }
        }
        let (disconnect, policy, disable) = try rest.get()
        await context.client.drop(wave.devices)
        var login = BenchPart(name: "login", figures: wave.figures, notes: wave.notes)
        login.figures.append(.count("users", app.users.count))
        let oneUser = try await oneUserDisconnect(server, world: world, wire: wire, context)
        return [login, disconnect, policy, disable, oneUser]
    }

    /// `one-user-disconnect`.
    private func oneUserDisconnect(
        _ server: ServerUnderTest, world: BenchWorld, wire: any BenchWire.Type, _ context: ScenarioContext
    ) async throws(BenchError) -> BenchPart {
        let app = world.app(LoginStormScenario.oneUserAppKey)
        let token = world.tokens(of: app.key)[0]
        let logins = (0..<context.options.devices).map {
            BenchLogin(appKey: app.key, user: LoginStormScenario.oneUser, token: token, deviceUUID: "d\($0)", os: "web")
        }
        let wave = await context.client.logIn(logins, endpoint: server.sessions, wire: wire, inFlight: context.options.inFlight)
        let http = server.http
        let result: Result<BenchPart, BenchError> = await context.client.run { loop, finish in
            let kicks = KickParts(loop: loop, http: http, world: world, devices: wave.devices.value)
            kicks.disconnectAll(app: app, user: LoginStormScenario.oneUser) { finish($0) }
        }
        await context.client.drop(wave.devices)
        var part = try result.get()
        part.figures.append(.count("loggedIn", wave.count))
        part.figures.append(BenchFigure(key: "loginsPerSecond", label: "logins/s", value: wave.figures[0].value, better: .higher))
        part.notes += wave.notes
        return part
    }
}

/// The kick parts on the client loop: REST and control calls on one keep-alive connection,
/// kicks timed by ``KickWatch``. Loop-confined.
private final class KickParts {
    private let loop: EventLoop
    private let http: HTTPLoadConnection
    private let world: BenchWorld
    private var devices: [BenchDevice]

    init(loop: EventLoop, http address: SocketAddress, world: BenchWorld, devices: [BenchDevice]) {
        self.loop = loop
        self.http = HTTPLoadConnection(address: address)
        self.world = world
        self.devices = devices
    }

    typealias Parts = (BenchPart, BenchPart, BenchPart)

    /// rest-disconnect, policy, app-disable.
    func run(
        sample: Int, tokens: [String], endpoint: SessionEndpoint, wire: any BenchWire.Type,
        completion: @escaping (Result<Parts, BenchError>) -> Void
    ) {
        let app = world.app(LoginStormScenario.appKey)
        connect(app: app, completion) { [self] appToken in
            let byUser = Dictionary(grouping: devices, by: \.login.user)
            let disconnectUsers = Array(app.users.prefix(sample))
            restDisconnects(disconnectUsers[...], byUser: byUser, app: app, appToken: appToken, watched: KickWatch.Result(), calls: Samples()) {
                [self] disconnect in
                let policyUsers = Array(app.users.dropFirst(sample).prefix(sample))
                let indexOf = Dictionary(uniqueKeysWithValues: app.users.enumerated().map { ($1, $0) })
                policyKicks(policyUsers[...], byUser: byUser, tokens: tokens, indexOf: indexOf, endpoint: endpoint, wire: wire,
                            watched: KickWatch.Result()) { [self] policy in
                    appDisable(app: app) { [self] disable in
                        http.close()
                        completion(.success((disconnect, policy, disable)))
                    }
                }
            }
        }
    }

    /// Opens the HTTP connection and gets an app token of `app`.
    private func connect(
        app: BenchWorld.AppSpec, _ failure: @escaping (Result<Parts, BenchError>) -> Void, then: @escaping (String) -> Void
    ) {
        openAndToken(app: app) { result in
            switch result {
            case .success(let token): then(token)
            case .failure(let error): failure(.failure(error))
            }
        }
    }

    private func openAndToken(app: BenchWorld.AppSpec, completion: @escaping (Result<String, BenchError>) -> Void) {
        http.open(loop: loop) { [self] opened in
            if case .failure(let error) = opened { return completion(.failure(error)) }
            let body: JSONValue = [
                "grant_type": "client_credentials", "client_id": .string(app.clientID), "client_secret": .string(app.clientSecret),
            ]
            http.request("POST", "\(Self.path(app))/token", json: body.encoded()) { result in
                switch result {
                case .success(let response):
                    guard response.status == 200, let token = (try? JSONValue.parse(response.body))?["access_token"]?.stringValue
                    else { return completion(.failure(BenchError("app token: status \(response.status)"))) }
                    completion(.success(token))
                case .failure(let error):
                    completion(.failure(error))
                }
            }
        }
    }

    static func path(_ app: BenchWorld.AppSpec) -> String {
        let parts = app.key.split(separator: "#")
        return "/\(parts[0])/\(parts[1])"
    }

    /// One REST disconnect after another.
    private func restDisconnects(
        _ users: ArraySlice<String>, byUser: [String: [BenchDevice]], app: BenchWorld.AppSpec, appToken: String,
        watched: KickWatch.Result, calls: Samples, completion: @escaping (BenchPart) -> Void
    ) {
        guard let user = users.first else {
            return completion(Self.part("rest-disconnect", watched, calls: calls))
        }
        let watch = KickWatch(loop: loop, devices: byUser[user] ?? [])
        var answered = false
        var kicked = false
        var total = watched
        var callTimes = calls
        let next = { [self] in
            guard answered, kicked else { return }
            restDisconnects(users.dropFirst(), byUser: byUser, app: app, appToken: appToken, watched: total, calls: callTimes,
                            completion: completion)
        }
        watch.watch(timeout: KickScenario.watchTimeout) { result in
            total.merge(result)
            kicked = true
            next()
        }
        let sent = monotonicNanoseconds()
        http.request("GET", "\(Self.path(app))/users/\(user)/disconnect", bearer: appToken) { _ in
            callTimes.add(milliseconds(from: sent, to: monotonicNanoseconds()))
            answered = true
            next()
        }
    }

    /// One new login after another, each into a full group: the earliest device is kicked.
    private func policyKicks(
        _ users: ArraySlice<String>, byUser: [String: [BenchDevice]], tokens: [String], indexOf: [String: Int],
        endpoint: SessionEndpoint, wire: any BenchWire.Type, watched: KickWatch.Result,
        completion: @escaping (BenchPart) -> Void
    ) {
        guard let user = users.first, let index = indexOf[user] else {
            return completion(Self.part("policy", watched, calls: nil))
        }
        let app = world.app(LoginStormScenario.appKey)
        // The earliest of the user's four devices is kicked: whichever logged in first.
        let watch = KickWatch(loop: loop, devices: byUser[user] ?? [], expecting: 1)
        let newcomer = BenchDevice(
            login: BenchLogin(appKey: app.key, user: user, token: tokens[index], deviceUUID: "\(user)-new", os: "ios"), wire: wire)
        var total = watched
        var loggedIn = false
        var kicked = false
        let next = { [self] in
            guard loggedIn, kicked else { return }
            policyKicks(users.dropFirst(), byUser: byUser, tokens: tokens, indexOf: indexOf, endpoint: endpoint, wire: wire,
                        watched: total, completion: completion)
        }
        watch.watch(timeout: KickScenario.watchTimeout) { result in
            total.merge(result)
            kicked = true
            next()
        }
        newcomer.onLoginSent = { device in watch.measure(from: monotonicNanoseconds()) }
        newcomer.connectAndLogIn(loop: loop, endpoint: endpoint) { [self] result in
            if case .success = result { devices.append(newcomer) }
            loggedIn = true
            next()
        }
    }

    /// Disables the app through the control API: every session left is kicked with 305.
    private func appDisable(app: BenchWorld.AppSpec, completion: @escaping (BenchPart) -> Void) {
        let watch = KickWatch(loop: loop, devices: devices)
        var answered: Double?
        var watched: KickWatch.Result?
        let done = {
            guard let answered, let watched else { return }
            var calls = Samples()
            calls.add(answered)
            completion(Self.part("app-disable", watched, calls: calls))
        }
        watch.watch(timeout: KickScenario.watchTimeout) { result in
            watched = result
            done()
        }
        let sent = monotonicNanoseconds()
        let body: JSONValue = ["serviceEnabled": false]
        http.request("POST", "/_imock/apps\(Self.path(app))/settings", bearer: ServerLauncher.adminSecret, json: body.encoded()) {
            _ in
            answered = milliseconds(from: sent, to: monotonicNanoseconds())
            done()
        }
    }

    /// `one-user-disconnect`: one REST disconnect of every device of `user`.
    func disconnectAll(app: BenchWorld.AppSpec, user: String, completion: @escaping (Result<BenchPart, BenchError>) -> Void) {
        openAndToken(app: app) { [self] result in
            guard case .success(let token) = result else {
                if case .failure(let error) = result { completion(.failure(error)) }
                return
            }
            let watch = KickWatch(loop: loop, devices: devices)
            var answered: Double?
            var watched: KickWatch.Result?
            let done = { [self] in
                guard let answered, let watched else { return }
                var calls = Samples()
                calls.add(answered)
                http.close()
                completion(.success(Self.part("one-user-disconnect", watched, calls: calls)))
            }
            watch.watch(timeout: KickScenario.watchTimeout) { result in
                watched = result
                done()
            }
            let sent = monotonicNanoseconds()
            http.request("GET", "\(Self.path(app))/users/\(user)/disconnect", bearer: token) { _ in
                answered = milliseconds(from: sent, to: monotonicNanoseconds())
                done()
            }
        }
    }

    /// A kick part: how many were kicked, p50/p99/max from the call, the call's own time.
    static func part(_ name: String, _ watched: KickWatch.Result, calls: Samples?) -> BenchPart {
        var figures: [BenchFigure] = [
            .count("kicked", watched.samples.count),
            .latency(50, watched.samples.p50), .latency(99, watched.samples.p99),
            BenchFigure(key: "maxMs", label: "max ms", value: watched.samples.max, better: .lower),
        ]
        if let calls, calls.count > 0 {
            figures.append(BenchFigure(key: "callP50Ms", label: "call p50 ms", value: calls.p50, better: .lower))
            figures.append(BenchFigure(key: "callMaxMs", label: "call max ms", value: calls.max, better: .lower))
        }
        var notes: [String] = []
        if watched.missed > 0 { notes.append("\(watched.missed) not kicked within \(KickScenario.watchTimeout)") }
        if watched.closedWithoutKick > 0 { notes.append("\(watched.closedWithoutKick) closed without a kicked frame") }
        return BenchPart(name: name, figures: figures, notes: notes)
    }
}

extension KickWatch.Result {
    mutating func merge(_ other: KickWatch.Result) {
        for value in other.samples.values { samples.add(value) }
        closedWithoutKick += other.closedWithoutKick
        missed += other.missed
    }
}
