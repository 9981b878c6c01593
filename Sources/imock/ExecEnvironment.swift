import IMockCore
import IMockHarness
import IMockNet
import IMockServer

/// The variables `imock exec` gives its command (``ExecOptions/usage``): the running server's
/// addresses and admin secret, and its apps' keys and credentials, read from its control API.
enum ExecEnvironment {
    static func variables(options: ExecOptions, port: UInt16) -> Result<[(String, String)], ExecFailure> {
        let configuration = options.configuration
        let wildcard = ["0.0.0.0", "::", ""].contains(configuration.host)
        let host = wildcard ? "127.0.0.1" : configuration.host
        let secure = configuration.tlsCertificatePath != nil
        let authority = (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        let server = (secure ? "https://" : "http://") + authority
        let socket = (secure ? "wss://" : "ws://") + authority
        var variables = [
            ("IMOCK_SERVER", server), ("IMOCK_WS_URL", socket + "/ws"), ("IMOCK_MSYNC_URL", socket + "/websocket"),
            ("IMOCK_ADMIN_SECRET", options.adminSecret),
        ]
        let export: JSONValue
        do {
            // With --tls-cert the server's own certificate is the one to trust (often self-signed).
            let client = try BlockingHTTP(
                endpoint: ServerEndpoint(host: host, port: port, secure: secure), trusting: configuration.tlsCertificatePath)
            defer { client.close() }
            guard case .success(let answer) = client.call("GET", "/_imock/export", bearer: options.adminSecret), answer.status == 200 else {
                return .failure(ExecFailure(message: "the server's control API did not answer GET /_imock/export"))
            }
            export = answer.body
        } catch {
            return .failure(ExecFailure(message: "cannot reach the server: \(error)"))
        }
        let apps = export["apps"]?.arrayValue ?? []
        let keys = apps.compactMap { $0["appKey"]?.stringValue }
        variables.append(("IMOCK_APP_KEYS", keys.joined(separator: " ")))
        let preferred = configuration.apps.first?.key
        if let first = apps.first(where: { $0["appKey"]?.stringValue == preferred }) ?? apps.first,
            let key = first["appKey"]?.stringValue, let hash = key.firstIndex(of: "#")
        {
            variables += [
                ("IMOCK_APP_KEY", key), ("IMOCK_ORG", String(key[..<hash])), ("IMOCK_APP", String(key[key.index(after: hash)...])),
                ("IMOCK_CLIENT_ID", first["clientId"]?.stringValue ?? ""),
                ("IMOCK_CLIENT_SECRET", first["clientSecret"]?.stringValue ?? ""),
            ]
        }
        return .success(variables)
    }
}
