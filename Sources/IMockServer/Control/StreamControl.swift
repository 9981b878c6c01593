import IMockCore
import IMockNet

/// `GET /_imock/events` (the sent-journal live, as Server-Sent Events) and `GET /_imock/metrics`
/// (Prometheus text). Both need the admin secret like every control route.
enum StreamControl {
    static let routes: [ControlRoute] = [
        ControlRoute("GET", "/_imock/events", response: { server, request throws(ControlError) in
            try request.allowQuery(["app"])
            let app = try request.appQuery(in: server.rest.directory)
            var head = HTTPResponse(status: 200)
            head.headers.set("Content-Type", "text/event-stream; charset=utf-8")
            head.headers.set("Cache-Control", "no-cache")
            // Proxies such as nginx would otherwise hold the events back.
            head.headers.set("X-Accel-Buffering", "no")
            return .stream(head: head, delegate: StreamSubscriber(app: app, broadcaster: server.events))
        }),
        ControlRoute("GET", "/_imock/metrics", response: { server, request throws(ControlError) in
            try request.allowQuery([])
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
}
