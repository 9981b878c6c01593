import IMockCore
import IMockWire
import IMockNet

/// The counters behind `/_imock/metrics`, fed by the server as things happen: REST answers by
/// status, and from the sent-journal kicks by code and logins by app and result. Gauges
/// (connections, sessions, uptime) are read when scraped (`MetricsExposition`). Loop-confined.
///
/// Logins are counted from the journal's `login.ok` and `login.error` frames, so the counts are
/// exact.
final class MetricsRecorder {
    /// When the recorder (and so the server) started, for `imock_uptime_seconds`.
    let startedAt = MonotonicInstant.now()
    /// REST API answers by HTTP status (the control API and `/ws` upgrades excluded).
    private(set) var restRequests: [Int: UInt64] = [:]
    /// `kicked` frames sent, by code.
    private(set) var kicks: [Int: UInt64] = [:]
    /// Successful logins by app key.
    private(set) var loginsOK: [String: UInt64] = [:]
    /// Refused logins by app key ("" when the app key was unknown) and `login.error` code.
    private(set) var loginErrors: [LoginErrorKey: UInt64] = [:]

    /// The labels of a refused login.
    struct LoginErrorKey: Hashable, Comparable {
        var app: String
        var code: Int

        static func < (lhs: LoginErrorKey, rhs: LoginErrorKey) -> Bool {
            (lhs.app, lhs.code) < (rhs.app, rhs.code)
        }
    }

    /// Counts a REST API answer; control-API paths (`/_imock/…`) and upgrades are not counted.
    func requestAnswered(_ request: HTTPRequest, _ answer: HTTPResponse) {
        guard !request.path.hasPrefix("/_imock/") else { return }
        restRequests[answer.status, default: 0] += 1
    }

    /// Counts what a journal entry shows: an accepted or refused login, a kick.
    func record(_ entry: JournalEntry) {
        switch entry.event {
        case .loginAccepted:
            loginsOK[entry.app?.description ?? "", default: 0] += 1
        case .kicked(let code, _, _):
            kicks[code, default: 0] += 1
        case .loginRefused(_, let error):
            loginErrors[LoginErrorKey(app: entry.app?.description ?? "", code: error.imockCode), default: 0] += 1
        default:
            break
        }
    }

    /// Seconds since the server started.
    var uptimeSeconds: Double { Double(uptimeNanoseconds) / 1_000_000_000 }

    /// Milliseconds since the server started (`GET /_imock/health`).
    var uptimeMilliseconds: Int64 { uptimeNanoseconds / 1_000_000 }

    private var uptimeNanoseconds: Int64 { MonotonicInstant.now().nanoseconds - startedAt.nanoseconds }
}
