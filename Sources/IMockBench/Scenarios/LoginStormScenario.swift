import IMockNet

/// `login-storm`: N distinct users each connect, log in with their own token and get the
/// login reply; logins/s and p50/p99 (connect start → login accepted). Against imock also
/// over TLS, and N devices of one user (an account under load test: the per-user paths must
/// not scan every session of the user).
struct LoginStormScenario: BenchScenario {
    let name = BenchScenarioName.loginStorm
    let servers: [ServerKind] = [.imock, .python]

    static let appKey = "bench#im"
    static let oneUserAppKey = "bench#many"
    static let oneUser = "load"

    func run(on server: ServerKind?, _ context: ScenarioContext) async throws(BenchError) -> [ScenarioReport] {
        let kind = server ?? .imock
        let options = context.options
        var reports: [ScenarioReport] = []
        for wire in context.wires(for: kind) {
            var parts: [BenchPart] = []
            parts.append(try await distinctUsers(kind, wire: wire, context))
            if kind == .imock, options.tls {
                for version in [TLSVersion.tls13, .tls12] {
                    do {
                        let full = try await distinctUsers(kind, wire: wire, context, tls: version)
                        parts.append(full)
                        parts.append(try await resumedTLS(kind, wire: wire, context, version: version, fullHandshakes: full))
                    } catch {
                        parts.append(BenchPart(name: Self.partName(version), figures: [], notes: ["not measured: \(error)"]))
                    }
                }
            }
            if kind == .imock {
                parts.append(try await oneUser(kind, wire: wire, context))
            }
            reports.append(
                ScenarioReport(
                    scenario: name.rawValue, server: kind.rawValue, dialect: wire.name, load: LoadSide.webSocket,
                    size: [("devices", options.devices), ("inFlight", options.inFlight)], parts: parts))
        }
        return reports
    }

    /// One login per user of the app, with the user's own token and device.
    private static func distinctLogins(_ world: BenchWorld) -> [BenchLogin] {
        zip(world.app(appKey).users, world.tokens(of: appKey)).map { user, token in
            BenchLogin(appKey: appKey, user: user, token: token, deviceUUID: "d-\(user)", os: "ios")
        }
    }

    /// `tls` for TLS 1.3, `tls12` for TLS 1.2.
    static func partName(_ version: TLSVersion) -> String { version == .tls13 ? "tls" : "tls12" }

    /// A client TLS context offering `version` at most.
    private static func clientTLS(_ version: TLSVersion, resumesSessions: Bool) throws(BenchError) -> TLSContext {
        do {
            return try TLSContext(clientTrusting: nil, resumesSessions: resumesSessions, highestVersion: version)
        } catch {
            throw BenchError("cannot make a client TLS context: \(error)")
        }
    }

    /// `distinct`, or `tls` / `tls12` (full handshakes): one device per user.
    private func distinctUsers(
        _ kind: ServerKind, wire: any BenchWire.Type, _ context: ScenarioContext, tls: TLSVersion? = nil
    ) async throws(BenchError) -> BenchPart {
        let world = BenchWorld(apps: [(Self.appKey, 4, BenchWorld.users(context.options.devices))], vendor: wire.vendor)
        let client = try tls.map { version throws(BenchError) in try Self.clientTLS(version, resumesSessions: false) }
        return try await context.with(kind, world: world, tls: tls != nil) { server throws(BenchError) in
            var endpoint = server.sessions
            if let client { endpoint.tls = client }
            let logins = Self.distinctLogins(world)
            let wave = await context.client.logIn(logins, endpoint: endpoint, wire: wire, inFlight: context.options.inFlight)
            await context.client.drop(wave.devices)
            return BenchPart(name: tls.map(Self.partName) ?? "distinct", figures: wave.figures, notes: wave.notes)
        }
    }

    /// `tls-resume` / `tls12-resume`: a reconnect storm of devices that were connected before. A
    /// first connection takes the server's session ticket (as each device keeps its own), then
    /// every device connects offering it: the handshake resumes the session, skipping the
    /// certificate and its signature — in TLS 1.3 OpenSSL 3.0 still does the key exchange, in
    /// TLS 1.2 there is none. `resumed` counts the handshakes that did; `× tls` is the rate
    /// against the full handshakes of the same version's part.
    private func resumedTLS(
        _ kind: ServerKind, wire: any BenchWire.Type, _ context: ScenarioContext, version: TLSVersion,
        fullHandshakes: BenchPart
    ) async throws(BenchError) -> BenchPart {
        let world = BenchWorld(apps: [(Self.appKey, 4, BenchWorld.users(context.options.devices))], vendor: wire.vendor)
        let resuming = try Self.clientTLS(version, resumesSessions: true)
        return try await context.with(kind, world: world, tls: true) { server throws(BenchError) in
            var endpoint = server.sessions
            endpoint.tls = resuming
            let logins = Self.distinctLogins(world)
            let primer = await context.client.logIn(Array(logins.prefix(1)), endpoint: endpoint, wire: wire, inFlight: 1)
            await context.client.drop(primer.devices)
            let wave = await context.client.logIn(logins, endpoint: endpoint, wire: wire, inFlight: context.options.inFlight)
            let resumed = await context.client.resumedHandshakes(wave.devices)
            await context.client.drop(wave.devices)
            let rate = { (figures: [BenchFigure]) in figures.first { $0.key == "perSecond" }?.value ?? 0 }
            let full = rate(fullHandshakes.figures)
            let versusFull = full > 0
                ? [BenchFigure(key: "timesFullHandshakes", label: "× tls", value: rate(wave.figures) / full, better: .higher)] : []
            return BenchPart(name: Self.partName(version) + "-resume", figures: wave.figures + [.count("resumed", resumed)] + versusFull, notes: wave.notes)
        }
    }

    /// `one-user`: N devices (distinct UUIDs) of one user, under a device limit above N.
    private func oneUser(_ kind: ServerKind, wire: any BenchWire.Type, _ context: ScenarioContext) async throws(BenchError)
        -> BenchPart
    {
        let devices = context.options.devices
        let world = BenchWorld(apps: [(Self.oneUserAppKey, devices + 1, [Self.oneUser])], vendor: wire.vendor)
        return try await context.with(kind, world: world) { server throws(BenchError) in
            let token = world.tokens(of: Self.oneUserAppKey)[0]
            let logins = (0..<devices).map { index in
                BenchLogin(appKey: Self.oneUserAppKey, user: Self.oneUser, token: token, deviceUUID: "d\(index)", os: "web")
            }
            let wave = await context.client.logIn(
                logins, endpoint: server.sessions, wire: wire, inFlight: context.options.inFlight)
            await context.client.drop(wave.devices)
            return BenchPart(name: "one-user", figures: wave.figures, notes: wave.notes)
        }
    }
}
