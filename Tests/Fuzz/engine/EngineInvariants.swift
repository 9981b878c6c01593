import IMockCore

/// What the engine's outputs have announced so far — which connections are open, logged in or
/// ended, when the engine's timers want waking — and the checks every batch of outputs must pass.
struct EngineInvariants {
    /// A connection as the outputs describe it (absent: never opened, or closed by the shell).
    enum Link: Equatable {
        /// Opened, not logged in.
        case open
        /// Logged in to this app.
        case live(AppKey)
        /// The engine ended it; the shell has not reported the close yet.
        case ended
    }

    /// The request a batch answers.
    struct Request {
        let connection: ConnectionID
        let tag: RequestTag?
        /// The app of a login (nil for anything else, or an app key that does not parse).
        let loginApp: AppKey?
        let isLogin: Bool
    }

    private(set) var links: [ConnectionID: Link] = [:]
    /// The wake-up the shell holds for the engine's token timers (the latest asked for; nil
    /// once it fired).
    var wakeAtMs: Int64?
    /// Live (not offline-sync) messages pushed to each connection, for output overflows.
    private(set) var livePushes: [ConnectionID: [ChatMessage]] = [:]

    func isLive(_ connection: ConnectionID) -> Bool {
        if case .live = links[connection] { return true }
        return false
    }

    /// The shell accepted a connection.
    mutating func opened(_ connection: ConnectionID) {
        check(links[connection] == nil, "\(connection) opened twice")
        links[connection] = .open
    }

    /// The shell reported the close (after the engine's batch for it was checked).
    mutating func closed(_ connection: ConnectionID) {
        links[connection] = nil
        livePushes[connection] = nil
    }

    /// Checks one batch, in order. `request` is the command whose batch it is; nil for every
    /// other event (opens, closes, control commands, timers), which must answer no request.
    mutating func checkBatch(_ outputs: [SessionOutput], request: Request?, nowMs: Int64, _ what: @autoclosure () -> String) {
        // A request on a connection that is open or logged in gets exactly one answer; one on a
        // connection that ended, was closed or was never opened is ignored.
        let answerable = request.map { links[$0.connection] == .open || isLive($0.connection) } ?? false
        var answers = 0
        var kicksAwaitingEnd: [ConnectionID: [(code: Int, by: KickedBy?)]] = [:]
        var loggedOut: Set<ConnectionID> = []
        var offlineRemaining: [ConnectionID: Int] = [:]
        var offlineDone: Set<ConnectionID> = []
        for (index, output) in outputs.enumerated() {
            let place = "output \(index) of \(what()): \(output)"
            switch output {
            case .reply(let connection, let tag, let reply):
                check(request != nil, "a reply outside a request's batch: \(place)")
                check(connection == request?.connection, "a reply to another connection: \(place)")
                check(tag == request?.tag, "a reply with another tag: \(place)")
                check(links[connection] == .open || isLive(connection), "a reply to a connection that is not open: \(place)")
                answers += 1
                switch reply {
                case .loginAccepted:
                    check(links[connection] == .open, "login accepted on a connection not awaiting login: \(place)")
                    check(request?.loginApp != nil, "login accepted for an app key that does not parse: \(place)")
                    if let app = request?.loginApp { links[connection] = .live(app) }
                case .loggedOut:
                    loggedOut.insert(connection)
                default:
                    break
                }
            case .push(let connection, let push):
                check(isLive(connection), "a push to a connection without a session: \(place)")
                switch push {
                case .offlineStart(let count):
                    check(count >= 1, "an empty offline sync: \(place)")
                    check(offlineRemaining[connection] == nil && !offlineDone.contains(connection), "a second offline sync: \(place)")
                    offlineRemaining[connection] = count
                case .message(let message):
                    if let remaining = offlineRemaining[connection] {
                        check(remaining > 0, "more offline messages than announced: \(place)")
                        offlineRemaining[connection] = remaining - 1
                    } else {
                        livePushes[connection, default: []].append(message)
                    }
                case .offlineFinish:
                    check(offlineRemaining[connection] == 0, "offline finish before its messages: \(place)")
                    offlineRemaining[connection] = nil
                    offlineDone.insert(connection)
                default:
                    break
                }
            case .end(let connection, let end):
                check(links[connection] == .open || isLive(connection), "an end for a connection that is not open: \(place)")
                switch end.cause {
                case .loginRefused(let tag, _):
                    check(request?.isLogin == true && request?.connection == connection && request?.tag == tag,
                          "a login refusal outside its login: \(place)")
                    check(links[connection] == .open, "a login refusal on a connection not awaiting login: \(place)")
                    answers += 1
                case .kicked(let code, let by):
                    let first = kicksAwaitingEnd[connection]?.first
                    check(first != nil && first?.code == code && first?.by == by, "an end as kicked without its journalled kick: \(place)")
                    kicksAwaitingEnd[connection]?.removeFirst()
                    if kicksAwaitingEnd[connection]?.isEmpty == true { kicksAwaitingEnd[connection] = nil }
                case .loggedOut:
                    check(loggedOut.contains(connection), "a logout end without its reply: \(place)")
                case .tokenExpired, .replaced:
                    check(isLive(connection), "a session end for a connection without a session: \(place)")
                case .outputOverflow:
                    // Also a connection that has not logged in yet may stop reading.
                    break
                }
                check(offlineRemaining[connection] == nil, "an end inside an offline sync: \(place)")
                links[connection] = .ended
            case .wake(let atMs):
                check(ValueLimits.epochMs.contains(atMs), "a wake-up outside the clock's range: \(place)")
                wakeAtMs = atMs
            case .journal(let entry):
                check(entry.atMs == nowMs, "a journal entry at another time than now (\(nowMs)): \(place)")
                check(links[entry.connection] == .open || isLive(entry.connection),
                      "a journal entry about a connection that is not open: \(place)")
                if case .kicked(let code, _, let by) = entry.event {
                    check(isLive(entry.connection), "a kick of a connection without a session: \(place)")
                    kicksAwaitingEnd[entry.connection, default: []].append((code, by))
                }
            }
        }
        check(kicksAwaitingEnd.isEmpty, "a kick without its end in \(what()): \(kicksAwaitingEnd.keys.sorted())")
        check(offlineRemaining.isEmpty, "an offline sync without its finish in \(what())")
        if request != nil {
            if answerable {
                check(answers == 1, "\(answers) answers to \(what()): \(outputs)")
            } else {
                check(outputs.isEmpty, "output for a request on a connection that is not open, \(what()): \(outputs)")
            }
        }
    }

    /// The engine's own view agrees with what its outputs announced.
    func checkAgreement(with domain: Domain, apps: [AppKey], _ what: @autoclosure () -> String) {
        check(domain.engine.connectionCount == links.count,
              "the engine knows \(domain.engine.connectionCount) connections, its outputs \(links.count), after \(what())")
        for app in apps {
            let engine = Set(domain.engine.sessions(in: app).map(\.connection))
            let announced = Set(links.compactMap { $0.value == .live(app) ? $0.key : nil })
            check(engine == announced, "live sessions of \(app): engine \(engine.sorted()), outputs \(announced.sorted()), after \(what())")
        }
        // Token timers only for live sessions, one each at most, and none the shell's one
        // wake-up would miss.
        let live = links.values.filter { if case .live = $0 { true } else { false } }.count
        check(domain.engine.pendingTokenTimerCount <= live,
              "\(domain.engine.pendingTokenTimerCount) token timers pending for \(live) sessions, after \(what())")
        if let next = domain.engine.nextTokenTimerDeadlineMs {
            check(wakeAtMs.map { $0 <= next } ?? false,
                  "a token timer at \(next) after the wake-up \(wakeAtMs.map(String.init) ?? "nil"), after \(what())")
        }
    }
}
