import IMockCore
import IMockNet

/// `GET /_imock/events` (the sent-journal live, as Server-Sent Events) and `GET /_imock/metrics`
/// (Prometheus text). Both need the admin secret like every control route.
enum StreamControl {
    static let routes: [ControlRoute] = [
        ControlRoute("GET", "/_imock/events", response: { server, request throws(ControlError) in
            try allowQuery(["app"], in: request)
            let app = try appFilter(request, in: server.rest.directory)
            var head = HTTPResponse(status: 200)
            head.headers.set("Content-Type", "text/event-stream; charset=utf-8")
            head.headers.set("Cache-Control", "no-cache")
            // Proxies such as nginx would otherwise hold the events back.
            head.headers.set("X-Accel-Buffering", "no")
            return .stream(head: head, delegate: StreamSubscriber(app: app, broadcaster: server.events))
        }),
        ControlRoute("GET", "/_imock/metrics", response: { server, request throws(ControlError) in
            try allowQuery([], in: request)
            let directory = server.rest.directory
            let engine = server.hub.engine
            var sessions: [(app: String, count: Int)] = []
            for key in directory.appKeys {
                let appSessions = engine.sessions(in: key)
                sessions.append((key.description, appSessions.count))
            }
            let snapshot = MetricsExposition.Snapshot(
                connections: server.connectionCount, sessions: sessions, eventStreams: server.events.subscriberCount,
                uptimeSeconds: server.metrics.uptimeSeconds)
            var headers = HTTPHeaders()
            headers.set("Content-Type", MetricsExposition.contentType)
            let text = MetricsExposition.render(server.metrics, snapshot)
            return .respond(HTTPResponse(status: 200, headers: headers, body: Array(text.utf8)))
        }),
    ]

    /// The `app` query parameter: absent = every app; not `org#app` → 400; unknown → 404.
    private static func appFilter(_ request: ControlRequest, in directory: Directory) throws(ControlError) -> AppKey? {
        guard let text = request.http.queryValue("app") else { return nil }
        let key: AppKey
        do {
            key = try AppKey(parsing: text)
        } catch {
            throw .badRequest("'app' must be an app key 'org#app' (write # as %23); got '\(text)'")
        }
        guard directory.apps[key] != nil else { throw .notFound("no app \(key)") }
        return key
    }

    /// Rejects query parameters the endpoint does not know, so a typo never passes silently.
    private static func allowQuery(_ names: Set<String>, in request: ControlRequest) throws(ControlError) {
        for (name, _) in request.http.query where !names.contains(name) {
            let allowed = names.isEmpty ? "none" : names.sorted().joined(separator: ", ")
            throw .badRequest("unknown query parameter '\(name)'; allowed: \(allowed)")
        }
    }
}
