import IMockClient
import IMockCommon
import IMockCore
import IMockHarness
import IMockNet
import IMockServer

/// `imock token`: an app or user token, minted offline for a seed file or asked from a running
/// server. Exit 0 with the token on standard output, 1 when the server or seed refuses, 64 for
/// bad usage.
enum TokenCommand {
    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        CommandStart.run(
            "token", arguments: arguments, help: TokenOptions.spec.help,
            parse: { () throws(UsageError) in try TokenOptions.parse(arguments, environment: environment) }, token)
    }

    /// Prints the token `options` ask for; the exit status.
    static func token(_ options: TokenOptions) -> Int32 {
        let result: Result<JSONValue, TokenCommandError> =
            options.seedPath != nil ? mintOffline(options) : askServer(options)
        switch result {
        case .success(let answer):
            print(options.json ? answer.encodedString : answer["access_token"]?.stringValue ?? "")
            return 0
        case .failure(let error):
            StandardError.write("imock token: \(error.message)")
            return error.exitCode
        }
    }

    /// Mints from the seed file at the given time.
    static func mintOffline(_ options: TokenOptions) -> Result<JSONValue, TokenCommandError> {
        let path = options.seedPath ?? ""
        let document: SeedDocument
        do {
            document = try SeedDocument.parse(bytes: try Files.read(path))
        } catch {
            // An unreadable or invalid seed file is bad usage, as for `imock serve --seed`.
            return .failure(TokenCommandError(message: "--seed \(path): \(error)", exitCode: UsageError.exitCode))
        }
        do throws(TokenMintError) {
            let issued = try document.mintToken(
                app: options.app, user: options.user, ttlSeconds: options.ttlSeconds, nowMs: options.nowMs ?? SystemClock().nowMs)
            var members: [(key: String, value: JSONValue)] = [
                ("access_token", .string(issued.token)), ("expires_in", .int(issued.expiresInSeconds)),
                ("application", .string(issued.claims.appKey.description)),
            ]
            if options.user != nil { members.append(("user", .string(issued.claims.subject))) }
            return .success(.object(members))
        } catch {
            let usage: Bool
            switch error {
            case .seed, .appNotChosen, .appNotFound: usage = true
            case .noSigningKey, .noClientID, .directory: usage = false
            }
            return .failure(TokenCommandError(message: error.description, exitCode: usage ? UsageError.exitCode : 1))
        }
    }

    /// Asks the server's REST API: an app token by client credentials (read through the control
    /// API when only the admin secret is given), then a user token by the `inherit` grant.
    static func askServer(_ options: TokenOptions) -> Result<JSONValue, TokenCommandError> {
        let url = options.serverURL ?? ""
        let endpoint: ServerEndpoint
        do { endpoint = try ServerEndpoint(url: url) } catch {
            return .failure(TokenCommandError(message: "--server \(url): \(error)", exitCode: UsageError.exitCode))
        }
        let key = options.app ?? (try! AppKey(parsing: ServerConfiguration.defaultApp.key))
        let base = "/\(key.org)/\(key.app)"
        let client: BlockingHTTP
        do { client = try BlockingHTTP(endpoint: endpoint) } catch {
            return .failure(TokenCommandError(message: "--server \(url): \(error)", exitCode: 1))
        }
        defer { client.close() }
        var credentials = options.clientID.flatMap { id in options.clientSecret.map { (id, $0) } }
        if credentials == nil {
            guard let secret = options.adminSecret else {
                return .failure(TokenCommandError(
                    message: "--server needs the app's --client-id and --client-secret, or --admin-secret to read them",
                    exitCode: UsageError.exitCode))
            }
            let exported = client.call("GET", "/_imock/apps\(base)/export", bearer: secret)
            guard case .success(let answer) = exported, answer.status == 200,
                let app = answer.body["apps"]?.arrayValue?.first,
                let id = app["clientId"]?.stringValue, let secret = app["clientSecret"]?.stringValue
            else {
                return .failure(TokenCommandError(message: "cannot read \(key)'s credentials: \(describe(exported))", exitCode: 1))
            }
            credentials = (id, secret)
        }
        var body: [(key: String, value: JSONValue)] = [
            ("grant_type", "client_credentials"), ("client_id", .string(credentials!.0)), ("client_secret", .string(credentials!.1)),
        ]
        if let ttl = options.ttlSeconds, options.user == nil { body.append(("ttl", .int(ttl))) }
        let appToken = client.call("POST", base + "/token", bearer: nil, body: .object(body))
        guard case .success(let answer) = appToken, answer.status == 200, let token = answer.body["access_token"]?.stringValue else {
            return .failure(TokenCommandError(message: "POST \(base)/token: \(describe(appToken))", exitCode: 1))
        }
        guard let user = options.user else { return .success(answer.body) }
        var userBody: [(key: String, value: JSONValue)] = [("grant_type", "inherit"), ("username", .string(user))]
        if let ttl = options.ttlSeconds { userBody.append(("ttl", .int(ttl))) }
        let userToken = client.call("POST", base + "/token", bearer: token, body: .object(userBody))
        guard case .success(let userAnswer) = userToken, userAnswer.status == 200 else {
            return .failure(TokenCommandError(message: "POST \(base)/token (inherit \(user)): \(describe(userToken))", exitCode: 1))
        }
        return .success(userAnswer.body)
    }

    private static func describe(_ result: Result<BlockingHTTP.Answer, HTTPFetchError>) -> String {
        switch result {
        case .success(let answer):
            let reason = answer.body["error_description"]?.stringValue ?? answer.body.encodedString
            return "HTTP \(answer.status) \(reason)"
        case .failure(let error): return "no answer (\(error))"
        }
    }
}

/// A failure of `imock token` and its exit status.
struct TokenCommandError: Error {
    var message: String
    var exitCode: Int32
}
