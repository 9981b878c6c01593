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
    /// A message the dialect cannot read: the device gives up its connection.
    case malformed(String)
}

/// What one step of a ``BenchWire`` produced: messages to send on the connection, in order,
/// and events the wire answers by itself (msync and OpenIM confirm offline messages by their
/// pulls, so an `ack` is answered on the device).
struct BenchWireOutput: Equatable {
    var send: [WireMessage] = []
    var events: [BenchEvent] = []

    init(send: [WireMessage] = [], events: [BenchEvent] = []) {
        self.send = send
        self.events = events
    }

    /// One message to send.
    init(_ message: WireMessage) {
        self.init(send: [message])
    }
}

/// The login policy family of the apps a dialect's devices log in to (the OpenIM gateway
/// serves only apps with OpenIM's policy).
enum BenchVendor: Sendable {
    case easemob
    case openIM
}

/// The client side of one wire dialect for the load generator: how a device opens its
/// connection, logs in, pings, sends and acks, and what the server's messages mean.
///
/// The scenarios `login-storm` and `messages` run once per entry of ``BenchWires/all``, so a
/// dialect the server learns is measured by adding a conforming type and one line to that list
/// (docs/BENCHMARKS.md § Dialects). A value is one device's state (sequence numbers, a pending
/// upgrade login …).
protocol BenchWire: Sendable {
    /// The name in reports, e.g. `imock-json`.
    static var name: String { get }

    /// Whether the Python baseline speaks it (only the imock JSON protocol).
    static var baselineSpeaks: Bool { get }

    /// The login policy family of the apps its devices use.
    static var vendor: BenchVendor { get }

    init()

    /// The WebSocket path and extra upgrade headers for this device. A dialect that logs in
    /// during the upgrade (OpenIM) puts the login in the query and headers here.
    mutating func upgrade(for login: BenchLogin) -> (path: String, headers: HTTPHeaders)

    /// What logs in once the socket is open (nothing to send when the upgrade carried the login).
    mutating func login(_ login: BenchLogin) -> BenchWireOutput

    /// A ping the server answers.
    mutating func ping() -> BenchWireOutput

    /// A 1:1 text message to `user`.
    mutating func send(to user: String, text: String) -> BenchWireOutput

    /// The acknowledgement of offline message `id`.
    mutating func ack(_ id: String) -> BenchWireOutput

    /// What one server message means (one message may carry several events, and may need an
    /// answer: a pull of the next page).
    mutating func receive(_ message: WireMessage) -> BenchWireOutput
}

extension BenchWire {
    static var baselineSpeaks: Bool { false }
    static var vendor: BenchVendor { .easemob }
}

/// The dialects the load side speaks, in report order.
enum BenchWires {
    /// Every dialect `login-storm` and `messages` are run with.
    static let all: [any BenchWire.Type] = [ImockJSONBenchWire.self, MsyncBenchWire.self, OpenIMBenchWire.self]

    /// The dialect named `name`.
    static func named(_ name: String) -> (any BenchWire.Type)? {
        all.first { $0.name == name }
    }
}
