import IMockCommon
import Synchronization
@testable import IMockCore
import IMockWire
import IMockTestSupport

/// What the engine's outputs became on the wire, as the tests read them: the imock dialect's
/// frames (parsed back from the text it wrote) and closes, the timers and the journal.
enum SessionEffect: Sendable, Equatable {
    /// A frame sent on the connection.
    case send(ConnectionID, ServerFrame)
    /// A close sent on the connection.
    case close(ConnectionID, closeCode: UInt16, reason: String)
    /// The engine's wake-up for its token timers.
    case wake(atMs: Int64)
    /// A journal entry, its event rendered in the imock protocol's words.
    case journal(JournalLine)
}

/// A journal entry as the control API shows it.
struct JournalLine: Sendable, Equatable {
    enum Event: Sendable, Equatable {
        case frame(ServerFrame)
        case closed(code: UInt16, reason: String)
    }

    var atMs: Int64
    var connection: ConnectionID
    var app: AppKey?
    var user: String?
    var resource: String?
    var event: Event

    init(_ entry: JournalEntry) {
        atMs = entry.atMs
        connection = entry.connection
        app = entry.app
        user = entry.user
        resource = entry.resource
        if case .closed(let code, let reason) = entry.event {
            event = .closed(code: code, reason: reason)
        } else {
            event = .frame(ServerFrame(journal: entry.event)!)
        }
    }
}

/// The engine harness (IMockTestSupport's ``EngineHarness``) with each connection speaking the
/// imock JSON dialect: frames go in as text and come out as text, the way the server's hub runs
/// them.
struct SessionHarness {
    /// The engine, its directory and clock, in the engine's words.
    var core: EngineHarness
    /// Every effect produced, in order.
    var log: [SessionEffect] = []
    /// Each open connection's dialect.
    var dialects: [ConnectionID: any WireDialect] = [:]

    static let appKeyText = EngineHarness.appKeyText

    init(settings: AppSettings = AppSettings(), decider: any LoginDecider = AcceptAllLoginDecider(),
         configuration: SessionEngineConfiguration = SessionEngineConfiguration()) throws {
        core = try EngineHarness(settings: settings, decider: decider, configuration: configuration)
    }

    var directory: Directory {
        get { core.directory }
        set { core.directory = newValue }
    }
    var engine: SessionEngine {
        get { core.engine }
        set { core.engine = newValue }
    }
    var clock: Timeline { core.clock }
    var app: AppKey { core.app }
    var nowMs: Int64 { core.nowMs }
    var pendingTimers: Int { core.pendingTimers }

    mutating func token(_ user: String, ttl: Int64 = 3600) throws -> String { try core.token(user, ttl: ttl) }

    /// Encodes `outputs` with each connection's dialect (`WireStep`), runs the timers, logs.
    @discardableResult
    mutating func apply(_ outputs: [SessionOutput]) -> [SessionEffect] {
        var effects: [SessionEffect] = []
        for output in core.apply(outputs) { effects += encode(output) }
        return record(effects)
    }

    /// One output as its connection's dialect writes it.
    private mutating func encode(_ output: SessionOutput) -> [SessionEffect] {
        if case .wake(let atMs) = output { return [.wake(atMs: atMs)] }
        let connection: ConnectionID? =
            switch output {
            case .reply(let id, _, _), .push(let id, _), .end(let id, _): id
            default: nil
            }
        var dialect = connection.flatMap { dialects[$0] }
        let effects = WireStep.steps(for: output, dialect: &dialect, nowMs: nowMs).map(effect(of:))
        if let connection, dialects[connection] != nil { dialects[connection] = dialect }
        return effects
    }

    private mutating func record(_ effects: [SessionEffect]) -> [SessionEffect] {
        log += effects
        return effects
    }

    private func effect(of step: WireStep) -> SessionEffect {
        switch step {
        case .send(let id, .text(let text), _, _): .send(id, (try? ServerFrameParser.parse(text)) ?? .error(id: nil, code: -1, message: text, field: nil))
        case .send(let id, .binary, _, _): .send(id, .error(id: nil, code: -2, message: "binary", field: nil))
        case .close(let id, let close): .close(id, closeCode: close.code, reason: close.reason)
        case .journal(let entry): .journal(JournalLine(entry))
        }
    }

    @discardableResult
    mutating func open(_ connection: UInt64) -> [SessionEffect] {
        dialects[ConnectionID(connection)] = dialects[ConnectionID(connection)] ?? ImockJSONDialect()
        return apply(core.engine.connectionOpened(ConnectionID(connection), nowMs: nowMs))
    }

    /// A text frame from the device, through its dialect, like the hub does: a malformed frame
    /// is answered by the dialect alone; a command goes to the engine.
    @discardableResult
    mutating func frame(_ connection: UInt64, _ text: String, faults: CommandFaults = .none) -> [SessionEffect] {
        let id = ConnectionID(connection)
        guard var dialect = dialects[id] else { return [] }
        let inputs = dialect.decode(.text(text))
        dialects[id] = dialect
        var effects: [SessionEffect] = []
        for input in inputs {
            switch input {
            case .command(let command):
                effects += apply(core.engine.handle(command, on: id, faults: faults, nowMs: nowMs, directory: &core.directory))
            case .reply(let message):
                effects += record([effect(of: .send(id, message, kind: .frame, chat: nil))])
            case .replyCarrying(let message, let messageIds):
                engine.handedOver(id, messageIDs: messageIds)
                effects += record([effect(of: .send(id, message, kind: .frame, chat: nil))])
            case .close(let close):
                effects += record([.close(id, closeCode: close.code, reason: close.reason)])
            }
        }
        return effects
    }

    @discardableResult
    mutating func close(_ connection: UInt64) -> [SessionEffect] {
        dialects[ConnectionID(connection)] = nil
        return apply(core.engine.connectionClosed(ConnectionID(connection), nowMs: nowMs))
    }

    /// Opens `connection` and logs `user` in with a fresh token unless one is given.
    @discardableResult
    mutating func login(
        _ connection: UInt64, _ user: String, token: String? = nil, os: String = "ios", uuid: String? = nil,
        name: String = "", extensionInfo: String = "", resource: String? = nil, autoLogin: Bool = false,
        sync: [String] = [], id: String = "L", faults: CommandFaults = .none
    ) throws -> [SessionEffect] {
        let token = try token ?? self.token(user)
        open(connection)
        var device: JSONValue = [
            "os": .string(os), "name": .string(name), "uuid": .string(uuid ?? "dev-\(connection)"),
            "extension": .string(extensionInfo),
        ]
        if let resource, case .object(var members) = device {
            members.append((key: "resource", value: .string(resource)))
            device = .object(members)
        }
        let frame: JSONValue = [
            "op": "login", "id": .string(id), "appKey": .string(Self.appKeyText), "user": .string(user),
            "token": .string(token), "device": device, "autoLogin": .bool(autoLogin),
            "sync": .array(sync.map { .string($0) }),
        ]
        return self.frame(connection, frame.encodedString, faults: faults)
    }

    /// Moves the timeline and handles the engine wake-ups it fired, in deadline order, like the
    /// hub; their outputs through the dialects.
    @discardableResult
    mutating func advance(by deltaMs: Int64) throws -> [SessionEffect] {
        let outputs = try core.advance(by: deltaMs)
        var effects: [SessionEffect] = []
        for output in outputs { effects += encode(output) }
        return record(effects)
    }
}

/// The frames sent to `connection`, in order.
func frames(_ effects: [SessionEffect], to connection: UInt64) -> [ServerFrame] {
    effects.compactMap {
        if case .send(let target, let frame) = $0, target == ConnectionID(connection) { return frame }
        return nil
    }
}

/// The effects that reach sockets (send and close), without journal and timers.
func wire(_ effects: [SessionEffect]) -> [SessionEffect] {
    effects.filter {
        switch $0 {
        case .send, .close: true
        default: false
        }
    }
}

/// The close codes per connection.
func closes(_ effects: [SessionEffect]) -> [(ConnectionID, UInt16)] {
    effects.compactMap {
        if case .close(let connection, let code, _) = $0 { return (connection, code) }
        return nil
    }
}

extension ServerFrame {
    /// The `code` of a `login.error`, `kicked` or `error` frame.
    var code: Int? {
        switch self {
        case .loginError(_, let code, _), .kicked(let code, _, _), .error(_, let code, _, _): code
        default: nil
        }
    }
}

