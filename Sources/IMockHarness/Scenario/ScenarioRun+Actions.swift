import IMockCore

extension DeviceCall {
    /// The adapter commands this call uses.
    var commandNames: [String] {
        switch self {
        case .initialize: ["init"]
        case .addDelegate: ["addDelegate"]
        case .removeDelegate: ["removeDelegate"]
        case .login: ["login"]
        case .autoLogin: ["autoLogin"]
        case .logout: ["logout"]
        case .renewToken: ["renewToken"]
        case .send: ["send"]
        case .ack: ["ack"]
        case .switchAccount: ["logout", "login"]
        case .queryDevices: ["queryDevices"]
        case .restart: ["restart"]
        }
    }
}

extension ScenarioRun {
    /// A device call: set-up calls run at once; SDK calls start, and settling waits for their
    /// completion (unless the device's network holds it), whose result is then checked.
    func perform(_ action: DeviceAction, index: Int) async throws(ScenarioFailure) {
        let device = fixture.device(action.device)!
        let adapter = adapter(of: device.name)
        let name = device.name
        let results = self.results
        var loggingInAs: String?
        /// Starts the calls one after the other (the first is under way when this returns); the
        /// last result is kept. A failed or refused call stops the chain.
        func start(_ what: String, _ commands: [AdapterCommand]) {
            let first = adapter.begin(device: name, commands[0])
            let task = Task {
                var last = await first.value()
                for command in commands.dropFirst() {
                    if case .result(let value) = last, value["error"].map({ !$0.isNull }) ?? false { break }
                    if case .refused = last { break }
                    last = await adapter.execute(device: name, command)
                }
                switch last {
                case .result(let value): results[index] = value
                case .refused(let reason): results[index] = ["refused": .string(reason)]
                }
            }
            time.inFlight.append((name, what, task))
        }
        switch action.call {
        case .initialize: results[index] = try await command(name, .initialize(setup(device)), "init")
        case .addDelegate: results[index] = try await command(name, .addDelegate, "addDelegate")
        case .removeDelegate: results[index] = try await command(name, .removeDelegate, "removeDelegate")
        case .restart:
            // The app starts again and logs in as the last online user by itself.
            if let user = currentUser[name] { resources.loginStarted(name, app: device.app, user: user) }
            results[index] = try await command(name, .restart, "restart")
        case .login(let user, let source), .autoLogin(let user, let source):
            let user = user ?? device.user
            let token = try await token(source, device: device, user: user)
            loggingInAs = user
            resources.loginStarted(name, app: device.app, user: user)
            var offline = false
            if case .autoLogin = action.call { offline = true }
            start("its login", [.login(user: user, token: token, offline: offline)])
        case .logout(let unbind): start("its logout", [.logout(unbind: unbind)])
        case .renewToken(let source): start("its renewToken", [.renewToken(try await token(source, device: device))])
        case .send(let to, let text): start("its send", [.send(to: to, text: text)])
        case .ack(let messageId): start("its ack", [.ack(messageId: messageId)])
        case .switchAccount(let user, let source):
            let token = try await token(source, device: device, user: user)
            loggingInAs = user
            resources.loginStarted(name, app: device.app, user: user)
            start("its account switch", [.logout(unbind: false), .login(user: user, token: token, offline: false)])
        case .queryDevices(let user, let source):
            let user = user ?? currentUser[name] ?? device.user
            let token = try await token(source, device: device, user: user)
            start("getLoggedInDevicesFromServer", [.queryDevices(user: user, token: token)])
        }
        try await time.settle()
        // The user a device's network faults and server checks refer to: the last one it logged in as.
        if let loggingInAs, let error = results[index]?["error"], error.isNull { currentUser[name] = loggingInAs }
        try checkResult(action, index: index)
    }

    private func checkResult(_ action: DeviceAction, index: Int) throws(ScenarioFailure) {
        guard var result = results[index] else {
            if action.result != nil {
                throw ScenarioFailure("\(action.device).\(action.call.summary) has not completed (its network holds it)", device: action.device)
            }
            return
        }
        if let refused = result["refused"]?.stringValue {
            throw .infrastructure("device \(action.device) could not \(action.call.summary): \(refused)", device: action.device)
        }
        if let resources = result["resources"]?.arrayValue {
            let names: [JSONValue] = resources.map { resource in
                let text = resource.stringValue ?? ""
                return .string(device(withResource: text, app: fixture.device(action.device)!.app) ?? text)
            }
            result = ["error": result["error"] ?? nil, "devices": .array(names)]
            results[index] = result
        }
        guard let matcher = action.result, !matcher.matches(result) else { return }
        throw ScenarioFailure(
            "\(action.device).\(action.call.summary) completed with an unexpected result", expected: [matcher.summary],
            observed: [result.encodedString], device: action.device)
    }

    /// The text of a token: issued now through the REST API, named, literal, or an app token.
    /// A fresh user token comes from the `inherit` grant with an app token, not from the
    /// password, so it is there also after a step changed the user's password.
    func token(_ source: TokenSource, device: FixtureDevice?, user: String? = nil) async throws(ScenarioFailure) -> String {
        let appName = device?.app ?? fixture.apps[0].name
        switch source {
        case .named(let name): return tokens[name]!
        case .literal(let text): return text
        case .appToken: return try await appToken(appName)
        case .fresh(let owner, let ttl, let named):
            let username = owner ?? user ?? device.map { currentUser[$0.name] ?? $0.user } ?? fixture.apps[0].users[0].username
            let app = named ?? appName
            var members: [(key: String, value: JSONValue)] = [("grant_type", "inherit"), ("username", .string(username))]
            if let ttl { members.append(("ttl", .int(ttl))) }
            let answer = try await server.link.call(
                "POST", "/\(apps[app]!.path)/token", bearer: try await appToken(app), body: .object(members))
            guard answer.status == 200, let token = answer.body["access_token"]?.stringValue else {
                throw ScenarioFailure("no token for \(username): \(answer.status) \(answer.body.encodedString)")
            }
            return token
        }
    }

    /// An app token (client credentials) of a fixture app.
    func appToken(_ appName: String) async throws(ScenarioFailure) -> String {
        let (id, secret) = credentials[appName]!
        let answer = try await server.link.call(
            "POST", "/\(apps[appName]!.path)/token", bearer: nil,
            body: ["grant_type": "client_credentials", "client_id": .string(id), "client_secret": .string(secret)])
        guard answer.status == 200, let token = answer.body["access_token"]?.stringValue else {
            throw ScenarioFailure("no app token for \(appName): \(answer.status) \(answer.body.encodedString)")
        }
        return token
    }
}
