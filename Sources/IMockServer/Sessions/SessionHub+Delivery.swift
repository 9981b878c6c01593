import IMockCore
import IMockNet
import IMockWire

/// Transport confirmation for dialects whose live pushes have no ack (docs/PROTOCOL.md §
/// Delivery): each chat message written is noted with where its frame ends in the outgoing
/// stream; once the peer's TCP has acknowledged the stream past that point, the engine counts
/// it delivered. Checked when the device sends something, when a connection's ledger grows,
/// before an overflow is declared, at the close, and by a sweep every
/// ``deliverySweepInterval`` of real time while anything waits.
extension SessionHub {
    /// How often, in real time, connections with unacknowledged messages are checked.
    static let deliverySweepInterval: Duration = .milliseconds(100)
    /// A connection whose ledger grows by this many messages is checked at once.
    static let ledgerCheckEvery = 256

    /// Message `chat` was just written to connection `id`, whose state is `state`.
    func noteWritten(_ chat: String, on state: ChannelState, id: ConnectionID) {
        guard state.withDialect({ $0.deliveryConfirmation }) == .transport else { return }
        let ledger = state.ledger ?? TransportLedger()
        state.ledger = ledger
        ledger.wrote(chat, endingAt: state.channel.bytesQueuedTotal)
        awaitingAcknowledgement.insert(id)
        if ledger.count % Self.ledgerCheckEvery == 0 { confirmDelivery(on: id) }
        armDeliverySweep()
    }

    /// Tells the engine which of the connection's written messages its peer acknowledged.
    func confirmDelivery(on id: ConnectionID) {
        guard let state = channels[id] else { return }
        confirmDelivery(state, on: id)
    }

    /// ``confirmDelivery(on:)`` for a connection's state (also once it left the table, at its close).
    func confirmDelivery(_ state: ChannelState, on id: ConnectionID) {
        guard let ledger = state.ledger, !ledger.isEmpty else { return }
        let reached = ledger.acknowledged(through: state.channel.bytesAcknowledgedByPeer)
        if ledger.isEmpty { awaitingAcknowledgement.remove(id) }
        if !reached.isEmpty { domain.value.delivered(id, messageIDs: reached) }
    }

    /// A closed connection's messages: what its peer acknowledged reached it, the rest waits
    /// again. A dialect that confirms by its protocol can confirm nothing more, and one whose
    /// peer acknowledged everything has nothing left: settled now. Otherwise once the socket
    /// is closed, since a closing socket lingers and the peer's last acknowledgements (its FIN
    /// acknowledges everything it received) come during the linger.
    func settleDelivery(_ state: ChannelState, of id: ConnectionID) {
        awaitingAcknowledgement.remove(id)
        confirmDelivery(state, on: id)
        guard state.ledger?.isEmpty == false else {
            domain.value.releaseInFlight(of: id)
            return
        }
        let hub = bound
        state.channel.whenSocketCloses {
            guard let hub = hub.value.object else { return }  // the server stopped
            hub.confirmDelivery(state, on: id)
            hub.domain.value.releaseInFlight(of: id)
        }
    }

    private func armDeliverySweep() {
        guard !deliverySweepArmed else { return }
        deliverySweepArmed = true
        let hub = bound
        _ = loop.scheduleTimer(after: Self.deliverySweepInterval) { hub.value.object?.sweepDeliveries() }
    }

    private func sweepDeliveries() {
        deliverySweepArmed = false
        for id in Array(awaitingAcknowledgement) { confirmDelivery(on: id) }
        if !awaitingAcknowledgement.isEmpty { armDeliverySweep() }
    }
}
