import Foundation
import IMockNet
import IMockTestSupport
import Synchronization

/// What the crash test's clients did against an `imock serve --data` child until it was
/// killed: every write they attempted and every one the server acknowledged (answered).
final class CrashLedger: Sendable {
    struct Send: Sendable {
        let from: String
        let to: String
        let text: String
    }

    private struct State {
        var attemptedUsers: Set<String> = []
        var registeredUsers: Set<String> = []
        /// Every send asked for, by its unique text.
        var attemptedSends: [String: Send] = [:]
        /// Acknowledged sends: text → message id.
        var sentIDs: [String: String] = [:]
        /// Message ids an ack was sent for.
        var attemptedAcks: Set<String> = []
        /// Message ids whose ack was acknowledged.
        var ackedIDs: Set<String> = []
        var operations = 0
    }

    private let state = Mutex(State())

    func attemptUser(_ name: String) { state.withLock { _ = $0.attemptedUsers.insert(name) } }
    func registered(_ name: String) { state.withLock { _ = $0.registeredUsers.insert(name); $0.operations += 1 } }
    func attemptSend(_ send: Send) { state.withLock { $0.attemptedSends[send.text] = send } }
    func sent(text: String, id: String) { state.withLock { $0.sentIDs[text] = id; $0.operations += 1 } }
    func attemptAck(_ id: String) { state.withLock { _ = $0.attemptedAcks.insert(id) } }
    func acked(_ id: String) { state.withLock { _ = $0.ackedIDs.insert(id); $0.operations += 1 } }

    var attemptedUsers: Set<String> { state.withLock { $0.attemptedUsers } }
    var registeredUsers: Set<String> { state.withLock { $0.registeredUsers } }
    var attemptedSends: [String: Send] { state.withLock { $0.attemptedSends } }
    var sentIDs: [String: String] { state.withLock { $0.sentIDs } }
    var attemptedAcks: Set<String> { state.withLock { $0.attemptedAcks } }
    var ackedIDs: Set<String> { state.withLock { $0.ackedIDs } }
    /// Acknowledged writes so far (registrations, queued messages, acks).
    var operations: Int { state.withLock { $0.operations } }
    /// Acknowledged registrations, queued messages and acks.
    var counts: (registrations: Int, sends: Int, acks: Int) {
        state.withLock { ($0.registeredUsers.count, $0.sentIDs.count, $0.ackedIDs.count) }
    }
}

/// The clients of the crash test: registration workers over keep-alive HTTP on threads of
/// their own, and messaging workers over the imock protocol, each cycling a sender that queues
/// messages for an offline recipient and the recipient that logs in, takes them and acks them.
/// Everything runs at full speed until the server dies; then each worker stops.
enum CrashWorkload {
    static let app = "acme#chat"

    /// Registers `worker-N` users one request after another on one connection until the
    /// connection fails.
    static func registrations(worker: Int, port: UInt16, ledger: CrashLedger) {
        guard let socket = try? RawSocket(port: port, timeoutSeconds: 20) else { return }
        for index in 0... {
            let name = "r\(worker)-\(index)"
            let body = #"{"username":"\#(name)","password":"pw-\#(name)"}"#
            ledger.attemptUser(name)
            let request = "POST /acme/chat/users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
            guard (try? socket.send(request)) != nil, let response = try? socket.receiveResponse(),
                response.head.status == 200
            else { return }
            ledger.registered(name)
        }
    }

    /// Runs `registrations` on a thread (blocking sockets stay off the cooperative pool).
    static func startRegistrations(worker: Int, port: UInt16, ledger: CrashLedger) -> Thread {
        let thread = Thread { registrations(worker: worker, port: port, ledger: ledger) }
        thread.start()
        return thread
    }

    /// Cycles: `sender` queues a batch for the offline `recipient` (pipelined sends), then the
    /// recipient logs in, takes its offline messages and acks every one (pipelined), and leaves.
    static func messaging(
        worker: Int, port: UInt16, loop: EventLoop, sender: (String, String), recipient: (String, String),
        batch: Int, ledger: CrashLedger
    ) async {
        guard let from = try? await ProtocolClient.connect(loop: loop, port: port) else { return }
        from.login(app: app, user: sender.0, token: sender.1, uuid: "s\(worker)")
        guard await from.next(op: "login.ok")["op"]?.string == "login.ok" else { return }
        var serial = 0
        while true {
            var pending: [String: String] = [:]
            for _ in 0..<batch {
                serial += 1
                let text = "w\(worker)-m\(serial)"
                ledger.attemptSend(.init(from: sender.0, to: recipient.0, text: text))
                pending["q\(serial)"] = text
                from.send(#"{"op":"send","id":"q\#(serial)","to":"\#(recipient.0)","text":"\#(text)"}"#)
            }
            while !pending.isEmpty {
                let reply = await from.next()
                guard reply["op"]?.string == "send.ok", let tag = reply["id"]?.string, let text = pending.removeValue(forKey: tag),
                    let id = reply["messageId"]?.string
                else { return }
                ledger.sent(text: text, id: id)
            }
            guard await takeAndAck(worker: worker, port: port, loop: loop, recipient: recipient, ledger: ledger) else { return }
        }
    }

    /// The recipient logs in, reads its offline messages and acks them all; false when the
    /// server is gone.
    private static func takeAndAck(
        worker: Int, port: UInt16, loop: EventLoop, recipient: (String, String), ledger: CrashLedger
    ) async -> Bool {
        guard let to = try? await ProtocolClient.connect(loop: loop, port: port) else { return false }
        defer { to.socket.close(code: 1000) }
        to.login(app: app, user: recipient.0, token: recipient.1, uuid: "r\(worker)")
        guard await to.next(op: "login.ok")["op"]?.string == "login.ok" else { return false }
        guard let count = await to.next(op: "offline.start")["count"]?.int else { return false }
        var ids: [String] = []
        for _ in 0..<count {
            guard let id = await to.next(op: "message")["messageId"]?.string else { return false }
            ids.append(id)
        }
        for id in ids {
            ledger.attemptAck(id)
            to.send(#"{"op":"ack","id":"\#(id)","messageId":"\#(id)"}"#)
        }
        for _ in ids {
            let reply = await to.next(op: "ack.ok")
            guard let id = reply["id"]?.string else { return false }
            ledger.acked(id)
        }
        return true
    }
}
