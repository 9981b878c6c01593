import IMockClient
import IMockCore
import IMockNet
import IMockWire

/// A vendor dialect the load side speaks through the reference client's wire for it
/// (`IMockClient`'s `ClientWire`): msync's protobuf PROVISION, UNREAD and page pulls, OpenIM's
/// upgrade-time login and gzip(gob) frames are the client's own code, not a second copy.
protocol ReferenceClientDialect: Sendable {
    /// The name in reports.
    static var name: String { get }
    /// The reference client's transport.
    static var transport: ClientTransport { get }
    /// The login policy family of its apps.
    static var vendor: BenchVendor { get }
    /// The platform of a device with bench OS `os` (`ios` or `web`).
    static func platform(os: String) -> DevicePlatform
}

/// Easemob msync at `/websocket` (docs/PROTOCOL-MSYNC.md).
enum MsyncBenchDialect: ReferenceClientDialect {
    static let name = "msync"
    static let transport = ClientTransport.msync
    static let vendor = BenchVendor.easemob
    static func platform(os: String) -> DevicePlatform { .easemob(os == "web" ? .web : .ios) }
}

/// The OpenIM message gateway at `/openim/{org}/{app}` (docs/PROTOCOL-OPENIM.md).
enum OpenIMBenchDialect: ReferenceClientDialect {
    static let name = "openim"
    static let transport = ClientTransport.openIM
    static let vendor = BenchVendor.openIM
    static func platform(os: String) -> DevicePlatform { .openIM(os == "web" ? .web : .ios) }
}

typealias MsyncBenchWire = ReferenceClientBenchWire<MsyncBenchDialect>
typealias OpenIMBenchWire = ReferenceClientBenchWire<OpenIMBenchDialect>

/// One device of dialect `Dialect`: the bench's calls become the requests the reference
/// client's state machine sends (`SessionCommand`s), encoded by its wire, and what the wire
/// decodes from the server (`ServerInput`s) becomes ``BenchEvent``s. A message the wire cannot
/// decode is a ``BenchEvent/malformed(_:)`` event (the device gives up).
struct ReferenceClientBenchWire<Dialect: ReferenceClientDialect>: BenchWire, @unchecked Sendable {
    // @unchecked: the wire is one device's, used only on the client loop (the protocol is
    // Sendable so that its metatype travels in the options).
    static var name: String { Dialect.name }
    static var vendor: BenchVendor { Dialect.vendor }

    private let wire: any ClientWire
    private var nextID = 0

    init() {
        wire = Dialect.transport.makeWire()
    }

    mutating func upgrade(for login: BenchLogin) -> (path: String, headers: HTTPHeaders) {
        let path = wire.upgradeTarget(endpointPath: ImockJSONDialect.path)
        guard wire.opensAtLogin else { return (path, HTTPHeaders()) }
        // The login is the upgrade's query (OpenIM): encoding it names the target.
        let output = wire.encode(.login(requestID(), request(login)))
        return (output.connect ?? path, HTTPHeaders())
    }

    mutating func login(_ login: BenchLogin) -> BenchWireOutput {
        guard !wire.opensAtLogin else { return bench(wire.handshakeSucceeded()) }
        return bench(wire.encode(.login(requestID(), request(login))))
    }

    mutating func ping() -> BenchWireOutput { bench(wire.encode(.ping(requestID()))) }

    mutating func send(to user: String, text: String) -> BenchWireOutput {
        bench(wire.encode(.send(requestID(), to: user, text: text)))
    }

    mutating func ack(_ id: String) -> BenchWireOutput { bench(wire.encode(.ack(requestID(), messageId: id))) }

    mutating func receive(_ message: WireMessage) -> BenchWireOutput { bench(wire.decode(message)) }

    private func request(_ login: BenchLogin) -> LoginRequest {
        LoginRequest(
            appKey: login.appKey, user: login.user, token: login.token,
            device: DeviceDescription(platform: Dialect.platform(os: login.os), name: "bench", uuid: login.deviceUUID))
    }

    private func bench(_ output: ClientWireOutput) -> BenchWireOutput {
        BenchWireOutput(send: output.send, events: output.inputs.map(Self.event))
    }

    /// The bench's reading of what the server said.
    static func event(_ input: Result<ServerInput, UnreadableMessage>) -> BenchEvent {
        switch input {
        case .failure(let error): .malformed("\(error)")
        case .success(.reply(_, .loginAccepted)): .loginAccepted
        case .success(.reply(_, .loginRefused(let error))): .loginRefused(code: error.code)
        case .success(.reply(_, .pong)): .pong
        case .success(.end(.kicked(let code, _, _))): .kicked(code: code)
        case .success(.push(.message(let message))): .message(id: message.messageId, text: message.text)
        case .success(.push(.offlineStart(let count))): .offlineStart(count: count)
        case .success(.push(.offlineFinish)): .offlineFinish
        case .success(.reply(_, .sent)): .sent
        case .success(.reply(_, .acked)): .acked
        case .success(.reply(_, .refused(let error, _))): .refused(code: error.code)
        case .success: .other
        }
    }

    private mutating func requestID() -> RequestTag {
        nextID += 1
        return RequestTag(String(nextID))
    }
}
