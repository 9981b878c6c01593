import IMockCommon
import IMockCore

/// One thing the shell must do for the engine's outputs, after the connection's dialect has
/// encoded them: the I/O-free bridge between ``SessionOutput`` and sockets, shared by the
/// server and the tests that drive the engine through a dialect.
public enum WireStep: Sendable, Equatable {
    /// Send `message` on the connection. `kind` is how faults see it; `chat` is the chat
    /// message it carries, when it carries one (so an undelivered one can be queued again).
    case send(ConnectionID, WireMessage, kind: FaultOutgoing, chat: ChatMessage?)
    /// Close the connection with this code and reason.
    case close(ConnectionID, WireClose)
    /// Append to the journal.
    case journal(JournalEntry)
}

extension WireStep {
    /// The steps for one engine output. `dialect` is the output's connection's dialect (nil
    /// when the connection is gone: its sends and ends are dropped). A session's end becomes
    /// the dialect's goodbye, its close, and a journal entry of that close.
    public static func steps(for output: SessionOutput, dialect: inout (any WireDialect)?, nowMs: Int64) -> [WireStep] {
        if case .journal(let entry) = output { return [.journal(entry)] }
        guard dialect != nil else { return [] }
        return steps(for: output, dialect: &dialect!, nowMs: nowMs)
    }

    /// ``steps(for:dialect:nowMs:)`` for an output whose connection is open, with its dialect.
    public static func steps(for output: SessionOutput, dialect: inout any WireDialect, nowMs: Int64) -> [WireStep] {
        dialect.observe(serverTimeMs: nowMs)
        switch output {
        case .reply(let connection, let tag, let reply):
            let kind: FaultOutgoing =
                switch reply {
                case .pong: .pong
                case .loginAccepted: .loginReply
                default: .frame
                }
            return dialect.encode(reply: reply, tag: tag).map { .send(connection, $0, kind: kind, chat: nil) }
        case .push(let connection, let push):
            let chat: ChatMessage? = if case .message(let message) = push { message } else { nil }
            let kind: FaultOutgoing =
                switch push {
                case .message: .message
                case .offlineStart: .offlineStart
                case .offlineFinish: .offlineFinish
                default: .frame
                }
            return dialect.encode(push: push).map { .send(connection, $0, kind: kind, chat: chat) }
        case .end(let connection, let end):
            let (messages, close) = dialect.encode(end: end)
            let kind: FaultOutgoing = if case .loginRefused = end.cause { .loginReply } else { .frame }
            let reason = TextLimits.prefix(close.reason, maximumUTF8Bytes: 123)
            return messages.map { .send(connection, $0, kind: kind, chat: nil) }
                + [
                    .close(
                        connection,
                        WireClose(code: close.code, reason: reason, lingerMs: close.lingerMs, announcement: close.announcement)),
                    .journal(JournalEntry(atMs: nowMs, subject: end.subject, event: .closed(code: close.code, reason: reason))),
                ]
        case .wake:
            // A timer is the shell's own business (the server's hub keeps one wake-up on the
            // `Timeline`): nothing goes on the wire.
            return []
        case .journal(let entry):
            return [.journal(entry)]
        }
    }
}
