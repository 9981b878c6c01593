import IMockCore

/// What the I/O shell must do, in order.
public enum ClientAction: Sendable, Equatable {
    /// Open (or create) the local database of `user`; answer with ``ClientEvent/databaseOpened(epoch:error:)``.
    case openDatabase(user: String, epoch: UInt64)
    /// Close the local database of login `epoch`.
    case closeDatabase(epoch: UInt64)
    /// Open a WebSocket to the server; answer with `socketOpened` / `socketClosed` of `generation`.
    case openSocket(generation: UInt64)
    /// Send `request` on socket `generation`, as the connection's ``ClientWire`` writes it in its
    /// dialect. The request's tag is the client's request id, which the reply carries back.
    case sendRequest(generation: UInt64, SessionCommand)
    /// Close socket `generation` with `code`; no `socketClosed` event is expected for it.
    case closeSocket(generation: UInt64, code: UInt16)
    /// Start (or restart) `timer`.
    case scheduleTimer(ClientTimer, afterMs: Int64)
    /// Stop `timer`.
    case cancelTimer(ClientTimer)
    /// Store a received message in the local database; for an offline one answer with
    /// ``ClientEvent/messageStored(messageId:)`` so the client acks it.
    case storeMessage(ChatMessage, offline: Bool)
    /// Deliver a callback to the delegates.
    case emit(EmittedCallback)
    /// A server message could not be read and was ignored (for the log).
    case ignoredMessage(reason: String)
}

/// One canonical callback and its rendering in the profile's vocabulary (zero or more records).
public struct EmittedCallback: Sendable, Equatable {
    /// The vendor-neutral event.
    public var canonical: CanonicalCallback
    /// What the vendor SDK calls, in order.
    public var records: [CallbackRecord]
}
