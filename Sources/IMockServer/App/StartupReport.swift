import IMockCommon
import IMockCore

/// What `imock serve` reports when it starts: where each face is served, the apps, the admin
/// secret, the clock and where state lives. Text logs get it as a banner that fits one screen;
/// JSON logs as one structured line per item (`control`, `dialect`, `app`), machine-readable.
public struct StartupReport: Sendable {
    /// One app of the directory.
    public struct App: Sendable, Equatable {
        public var key: String
        public var registration: String
        public var policy: String
        public var clientID: String
        /// Shown only for the implicit demo app (a first run needs it for an app token).
        public var clientSecret: String?
    }

    /// `http://127.0.0.1:5280` (`https` with TLS).
    public var httpBase: String
    /// `ws://127.0.0.1:5280` (`wss` with TLS).
    public var socketBase: String
    /// Each dialect's name and WebSocket path.
    public var dialects: [(name: String, path: String)]
    public var apps: [App]
    /// The generated admin secret; nil when it was given (flag or environment).
    public var generatedAdminSecret: String?
    /// Whether the control API also answers non-loopback clients.
    public var controlRemote: Bool
    /// `system` or `virtual`.
    public var clockMode: String
    /// The clock's time at start.
    public var clockNowMs: Int64
    /// Where state is kept; nil for memory only.
    public var dataDirectory: String?

    /// The JSON-log lines: event name and fields, in order (the secret only when generated).
    public var logEntries: [(event: String, fields: [(String, String)])] {
        var entries: [(event: String, fields: [(String, String)])] = []
        var control = [("url", httpBase + "/_imock/"), ("dashboard", httpBase + "/_imock/ui"), ("clock", clockMode)]
        if let secret = generatedAdminSecret { control.insert(("adminSecret", secret), at: 0) }
        control.append(("state", dataDirectory ?? "memory"))
        entries.append(("control", control))
        entries.append(("rest", [("url", httpBase)]))
        for dialect in dialects { entries.append(("dialect", [("name", dialect.name), ("url", socketBase + dialect.path)])) }
        for app in apps {
            var fields = [("appKey", app.key), ("registration", app.registration), ("policy", app.policy), ("clientId", app.clientID)]
            if let secret = app.clientSecret { fields.append(("clientSecret", secret)) }
            entries.append(("app", fields))
        }
        return entries
    }

    /// The banner of text logs, at most about twenty lines for a few apps.
    public func bannerLines(version: String) -> [String] {
        var lines = ["imock \(version) — mock IM backend and conformance harness".replacing("  ", with: " ")]
        func row(_ label: String, _ text: String) {
            lines.append("  " + label + String(repeating: " ", count: max(13 - label.count, 1)) + text)
        }
        row("REST", httpBase + "/{org}/{app}/…  (Easemob-shaped; docs/openapi.yaml)")
        row("", httpBase + "/openim/{org}/{app}/…  (OpenIM's; docs/PROTOCOL-OPENIM.md)")
        for (index, dialect) in dialects.enumerated() {
            row(index == 0 ? "WebSocket" : "", dialect.name + String(repeating: " ", count: max(8 - dialect.name.count, 1))
                + socketBase + dialect.path)
        }
        let access = controlRemote ? "any client with the secret" : "loopback clients with the secret"
        row("Control API", httpBase + "/_imock/  (\(access))")
        row("Dashboard", httpBase + "/_imock/ui")
        if let secret = generatedAdminSecret {
            row("Admin secret", secret + "  (generated; set --admin-secret or IMOCK_ADMIN_SECRET to choose it)")
        } else {
            row("Admin secret", "given by --admin-secret or IMOCK_ADMIN_SECRET")
        }
        let time = Timestamp.iso8601(epochMilliseconds: clockNowMs)
        row("Clock", clockMode == "virtual" ? "virtual, frozen at \(time) (POST /_imock/clock/advance)" : "system (\(time))")
        row("State", dataDirectory.map { "SQLite in \($0)" } ?? "in memory (lost at exit)")
        for (index, app) in apps.enumerated() {
            row(index == 0 ? "Apps" : "", "\(app.key)  \(app.registration) registration, \(app.policy)")
            if let secret = app.clientSecret {
                row("", "  client_id \(app.clientID)  client_secret \(secret)")
            }
        }
        return lines
    }
}
