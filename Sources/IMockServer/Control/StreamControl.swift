import IMockCore
import IMockNet

/// `GET /_imock/events` (the sent-journal live, as Server-Sent Events) and `GET /_imock/metrics`
/// (Prometheus text). Both need the admin secret like every control route.
enum StreamControl {
    static let routes: [ControlRoute] = [
        ControlRoute("GET", "/_imock/events", response: { context, request throws(ControlError) in
            try request.allowQuery(["app"])
            let app = try request.appQuery(in: context.directory)
            // EventSource sends the last id it read when it reconnects: what came after it that
            // the journal still holds goes first. An id this process has not given yet is from
            // an earlier run of the server (numbers start again at 1): all it holds is new.
            let lastEventID = try request.intHeader("Last-Event-ID", in: ValueLimits.counter)
            let sessions = context.sessions
            let replay = lastEventID.map { lastID in
                {
                    let after = lastID < sessions.journalNextSequence ? lastID : 0
                    return sessions.journal(afterSequence: after, sinceMs: nil, app: app)
                }
            }
            var head = HTTPResponse(status: 200)
            head.headers.set("Content-Type", "text/event-stream; charset=utf-8")
            head.headers.set("Cache-Control", "no-cache")
            // Proxies such as nginx would otherwise hold the events back.
            head.headers.set("X-Accel-Buffering", "no")
            return .stream(head: head, delegate: StreamSubscriber(app: app, broadcaster: context.events, replay: replay))
        }),
        ControlRoute("GET", "/_imock/metrics", response: { context, request throws(ControlError) in
            try request.allowQuery([])
            let directory = context.directory
            let engine = context.domain.value.engine
            var sessions: [(app: String, count: Int)] = []
            for key in directory.appKeys {
                let appSessions = engine.sessions(in: key)
                sessions.append((key.description, appSessions.count))
            }
            let snapshot = MetricsExposition.Snapshot(
                connections: context.connectionCount(), sessions: sessions, eventStreams: context.events.subscriberCount,
                uptimeSeconds: context.metrics.uptimeSeconds)
            var headers = HTTPHeaders()
            headers.set("Content-Type", MetricsExposition.contentType)
            let text = MetricsExposition.render(context.metrics, snapshot)
            return .respond(HTTPResponse(status: 200, headers: headers, body: Array(text.utf8)))
        }),
    ]
}
