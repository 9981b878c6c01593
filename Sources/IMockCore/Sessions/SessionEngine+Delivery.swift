import IMockCommon

/// The delivery contract, owned here for every dialect (docs/PROTOCOL.md § Delivery): a
/// message the engine accepted stays in its recipient's queue until a device confirms it —
/// by the dialect's own ack (imock `ack`, an msync page confirmed by key) or, for a dialect
/// whose live pushes and pull answers have no ack (OpenIM), by the device's TCP acknowledging
/// the bytes that carried it (``SessionEngine/delivered(_:messageIDs:)``). A close of any kind puts every
/// message the connection held and had not confirmed back to waiting, in place: in order, once.
extension SessionEngine {
    /// The messages in flight to one connection: pushed live, not confirmed.
    struct InFlight: Sendable {
        /// The connection's user (its queue holds the messages).
        var key: UserKey
        /// The held messages by id, with what each costs (``ChatMessage/heldBytes``): one or
        /// two nearly always, found without hashing.
        var messages = SmallMap<String, Int>()
        /// The sum of those costs.
        var bytes = 0

        /// Holds message `id` at `cost` (once).
        mutating func hold(_ id: String, cost: Int) {
            bytes += cost - (messages.updateValue(cost, forKey: id) ?? 0)
        }

        /// No longer holds message `id`; false when it did not.
        mutating func forget(_ id: String) -> Bool {
            guard let cost = messages.removeValue(forKey: id) else { return false }
            bytes -= cost
            return true
        }
    }

    /// Queues an accepted message for `recipient`, in flight to each of the `holders` (the
    /// connections of its live sessions, which the caller pushes it to), waiting when there is
    /// none. `queue`: where the recipient's queue is in ``offlineQueues``, nil when it has none
    /// (the caller looked it up).
    mutating func enqueue(
        _ message: ChatMessage, for recipient: UserKey, queue: Dictionary<UserKey, OfflineQueue>.Index?,
        heldBy holders: ConnectionList
    ) {
        if let queue {
            offlineQueues.values[queue].append(message, heldBy: holders)
        } else {
            var new = OfflineQueue()
            new.append(message, heldBy: holders)
            offlineQueues[recipient] = new
        }
        changeLog.record(.messagesQueued(recipient.app, recipient: recipient.user, messages: [message]))
        let cost = message.heldBytes
        for connection in holders {
            inFlight[connection, default: InFlight(key: recipient)].hold(message.messageId, cost: cost)
        }
    }

    /// Removes message `id` from `key`'s queue for good (a device confirmed it); false when it
    /// was not queued. The connections it was in flight to hold it no longer.
    mutating func confirm(_ id: String, of key: UserKey) -> Bool {
        guard let queue = offlineQueues.index(forKey: key), let entry = offlineQueues.values[queue].remove(id) else {
            return false
        }
        if offlineQueues.values[queue].isEmpty { offlineQueues.remove(at: queue) }
        changeLog.record(.messageAcked(key.app, recipient: key.user, messageID: id))
        for holder in entry.holders { forget(id, heldBy: holder) }
        return true
    }

    /// Message `id` is no longer in flight to `connection`.
    private mutating func forget(_ id: String, heldBy connection: ConnectionID) {
        guard let held = inFlight.index(forKey: connection), inFlight.values[held].forget(id) else { return }
        if inFlight.values[held].messages.isEmpty { inFlight.remove(at: held) }
    }

    /// The device on `connection` received these messages: its TCP acknowledged the bytes that
    /// carried them (the shell reads that from the socket, for dialects whose live pushes have
    /// no ack of their own). Those in flight to it are confirmed; others (an offline sync's,
    /// which its protocol acks) are left alone.
    public mutating func delivered(_ connection: ConnectionID, messageIDs: [String]) {
        for id in messageIDs {
            guard let held = inFlight[connection] else { return }
            if held.messages.contains(id) { _ = confirm(id, of: held.key) }
        }
    }

    /// The device on `connection` pulled these messages of its user's queue (an OpenIM 1002):
    /// they are in flight to it from now on, as a live push is, until its TCP acknowledges the
    /// answer that carries them (``delivered(_:messageIDs:)``) or its close puts them back to
    /// waiting. Counted at no cost: their bytes are the answer's, which the socket holds.
    /// Messages no longer queued (another device confirmed them) or already held are left.
    public mutating func handedOver(_ connection: ConnectionID, messageIDs: [String]) {
        guard case .loggedIn(let sessionID) = connections[connection], let key = sessions[sessionID]?.key else { return }
        for id in messageIDs where offlineQueues[key]?.hold(id, by: connection) == true {
            inFlight[connection, default: InFlight(key: key)].hold(id, cost: 0)
        }
    }

    /// These messages in flight to `connection` were never written to it (they waited for its
    /// socket to drain, and its session ended first): they wait again now, in place, without
    /// waiting for the close.
    public mutating func notWritten(_ connection: ConnectionID, messageIDs: [String]) {
        guard let key = inFlight[connection]?.key else { return }
        for id in messageIDs where inFlight[connection]?.messages.contains(id) == true {
            forget(id, heldBy: connection)
            _ = offlineQueues[key]?.release(id, from: connection)
        }
    }

    /// The connection is gone: what it held and had not confirmed waits again, in place.
    public mutating func releaseInFlight(of connection: ConnectionID) {
        guard let held = inFlight.removeValue(forKey: connection) else { return }
        for id in held.messages.keys { _ = offlineQueues[held.key]?.release(id, from: connection) }
    }

    /// What the messages in flight to `connection` cost (the output cap counts it with the
    /// bytes its socket has not taken).
    public func heldBytes(of connection: ConnectionID) -> Int { inFlight[connection]?.bytes ?? 0 }

    /// How many messages are in flight to `connection`.
    public func inFlightCount(of connection: ConnectionID) -> Int { inFlight[connection]?.messages.count ?? 0 }
}

extension ChatMessage {
    /// About what holding the message costs in memory: its strings and the entry around them.
    public var heldBytes: Int { text.utf8.count + from.utf8.count + to.utf8.count + messageId.utf8.count + 64 }
}
