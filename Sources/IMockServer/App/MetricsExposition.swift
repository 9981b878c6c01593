import IMockCommon
import IMockCore

/// Renders the server's metrics in the Prometheus text exposition format 0.0.4: for each
/// family a `# HELP` and a `# TYPE` line, then one sample per label set, in a stable order.
struct MetricsExposition {
    /// The `Content-Type` of the exposition.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The values scraped at one moment.
    struct Snapshot {
        var connections: Int
        /// Live sessions per app key, every app listed.
        var sessions: [(app: String, count: Int)]
        var eventStreams: Int
        var uptimeSeconds: Double
    }

    /// The whole exposition text.
    static func render(_ recorder: MetricsRecorder, _ snapshot: Snapshot) -> String {
        var out = ""
        family(&out, "imock_connections", "gauge", "Open TCP connections (HTTP, WebSocket and event streams).")
        out += "imock_connections \(snapshot.connections)\n"

        family(&out, "imock_sessions", "gauge", "Logged-in /ws sessions per app.")
        for (app, count) in snapshot.sessions { out += "imock_sessions\(labels(["app": app])) \(count)\n" }

        family(&out, "imock_logins_total", "counter", "/ws logins by app and result: ok, or error with the login.error code.")
        for (app, count) in recorder.loginsOK.sorted(by: { $0.key < $1.key }) {
            out += "imock_logins_total\(labels(["app": app, "result": "ok"])) \(count)\n"
        }
        for (key, count) in recorder.loginErrors.sorted(by: { $0.key < $1.key }) {
            out += "imock_logins_total\(labels(["app": key.app, "result": "error", "code": String(key.code)])) \(count)\n"
        }

        family(&out, "imock_kicks_total", "counter", "kicked frames sent to devices, by code.")
        for (code, count) in recorder.kicks.sorted(by: { $0.key < $1.key }) {
            out += "imock_kicks_total\(labels(["code": String(code)])) \(count)\n"
        }

        family(&out, "imock_rest_requests_total", "counter", "REST API responses by HTTP status (control API excluded).")
        for (status, count) in recorder.restRequests.sorted(by: { $0.key < $1.key }) {
            out += "imock_rest_requests_total\(labels(["status": String(status)])) \(count)\n"
        }

        family(&out, "imock_event_streams", "gauge", "Open /_imock/events streams.")
        out += "imock_event_streams \(snapshot.eventStreams)\n"

        family(&out, "imock_uptime_seconds", "gauge", "Seconds since the server started.")
        out += "imock_uptime_seconds \(formatted(snapshot.uptimeSeconds))\n"
        return out
    }

    private static func family(_ out: inout String, _ name: String, _ type: String, _ help: String) {
        out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    /// `{name="value",…}` in the given key order ("app", "result", "code", "status"), with
    /// backslash, double quote and line feed escaped.
    private static func labels(_ pairs: KeyValuePairs<String, String>) -> String {
        let body = pairs.map { name, value in
            var escaped = ""
            for character in value {
                switch character {
                case "\\": escaped += "\\\\"
                case "\"": escaped += "\\\""
                case "\n": escaped += "\\n"
                default: escaped.append(character)
                }
            }
            return "\(name)=\"\(escaped)\""
        }
        return "{\(body.joined(separator: ","))}"
    }

    /// Seconds with millisecond precision, e.g. `12.345`.
    private static func formatted(_ seconds: Double) -> String {
        DecimalText.fixed(seconds, digits: 3, rule: .down)
    }
}
