import IMockNet
import IMockWire

/// One device's login, as every dialect needs it.
struct BenchLogin: Sendable {
    var appKey: String
    var user: String
    var token: String
    var deviceUUID: String
    /// The Easemob OS (`ios`, `web` …) of the device.
    var os: String
}

/// What the load side makes of one server message, whatever the dialect.
enum BenchEvent: Equatable {
    case loginAccepted
    case loginRefused(code: Int)
    case pong
    case kicked(code: Int)
    /// A chat message (live or offline): its server id and text.
    case message(id: String, text: String)
    case offlineStart(count: Int)
    case offlineFinish
    case sent
    case acked
    case refused(code: Int)
    /// Anything the scenarios do not look at (sync frames, token warnings …).
    case other
}

/// The client side of one wire dialect for the load generator: how a device opens its
/// connection, logs in, pings, sends and acks, and what the server's messages mean.
///
/// The scenarios `login-storm` and `messages` run once per entry of ``BenchWires/all``, so a
/// dialect the server learns (msync, the OpenIM gateway) is measured by adding a conforming
/// type here and one line to that list (docs/BENCHMARKS.md § Dialects). A value is one
/// device's state (sequence numbers, a pending upgrade login …).
protocol BenchWire: Sendable {
    /// The name in reports, e.g. `imock-json`.
    static var name: String { get }

    init()

    /// The WebSocket path and extra upgrade headers for this device. A dialect that logs in
    /// during the upgrade (OpenIM) puts the login in the query and headers here.
    func upgrade(for login: BenchLogin) -> (path: String, headers: HTTPHeaders)

    /// The messages that log in once the socket is open (none when the upgrade logged in).
    mutating func login(_ login: BenchLogin) -> [WireMessage]

    /// Whether the login is already accepted when the socket opens (an upgrade-time login).
    var loggedInByUpgrade: Bool { get }

    /// A ping the server answers.
    mutating func ping() -> WireMessage

    /// A 1:1 text message to `user`.
    mutating func send(to user: String, text: String) -> WireMessage

    /// The acknowledgement of offline message `id`.
    mutating func ack(_ id: String) -> WireMessage

    /// What one server message means (one message may carry several events).
    mutating func events(in message: WireMessage) -> [BenchEvent]
}

extension BenchWire {
    var loggedInByUpgrade: Bool { false }
}

/// The dialects the load side speaks, in report order.
enum BenchWires {
    /// Every dialect `login-storm` and `messages` are run with.
    static let all: [any BenchWire.Type] = [ImockJSONBenchWire.self]

    /// The dialect named `name`.
    static func named(_ name: String) -> (any BenchWire.Type)? {
        all.first { $0.name == name }
    }
}
