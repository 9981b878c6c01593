import IMockCore
import IMockNet

/// Pacing (docs/PROTOCOL.md § Delivery): a connection's outputs are written as its socket
/// takes them. Once a message would be written with ``pacingThresholdBytes`` already waiting,
/// it and every output after it for that connection wait in a backlog — in order — until the
/// socket drains to half that, and then go out the same way. An offline sync of a queue larger
/// than the output cap therefore reaches a device that reads, however slowly, instead of
/// passing the cap in one turn (and again at every login: the queue was put back each time);
/// what waits in a backlog is the queue's messages, not their encoding, so a device that does
/// not read holds no more than the threshold of output. Live messages still count as held
/// while they wait, so a non-reader still meets the cap.
extension SessionHub {
    /// A quarter of the output cap, at most 256 KiB.
    var pacingThresholdBytes: Int { max(1, min(256 * 1024, outputLimit / 4)) }

    /// Whether `output` joins the connection's backlog instead of being written now. An end
    /// goes out at once, after the backlog's replies: the session is over, and the backlog's
    /// messages are the queue's again at once (offline ones were never taken from it; live ones
    /// were in flight but never written, so the close has nothing to wait for).
    func waitsForDrain(_ output: SessionOutput, on id: ConnectionID) -> Bool {
        if backlogs[id] != nil {
            if case .end = output {
                // The answers the device waits for still precede the goodbye (a `logout.ok`
                // before its close); the messages wait again.
                let replies = backlogs[id]!.filter { if case .reply = $0 { true } else { false } }
                dropBacklog(of: id)
                perform(replies)
                return false
            }
            backlogs[id]!.append(output)
            if case .push(_, .message) = output { checkOutputLimit(id) }  // a live one is held meanwhile
            return true
        }
        guard case .push(_, .message) = output, let channel = channels[id]?.channel,
            channel.pendingOutputBytes >= pacingThresholdBytes
        else { return false }
        backlogs[id] = [output]
        let hub = bound
        channel.whenOutputDrains(below: pacingThresholdBytes / 2) { hub.value.object?.resumeBacklog(of: id) }
        checkOutputLimit(id)
        return true
    }

    /// Forgets the connection's backlog; its live messages wait again now.
    func dropBacklog(of id: ConnectionID) {
        guard let backlog = backlogs.removeValue(forKey: id) else { return }
        let messages = backlog.compactMap { output -> String? in
            if case .push(_, .message(let message)) = output { message.messageId } else { nil }
        }
        if !messages.isEmpty { domain.value.notWritten(id, messageIDs: messages) }
    }

    /// Writes the backlog's outputs in order until the socket is full again (a new backlog then
    /// takes the rest) or none is left. An output that closes the connection (the cap, a kick)
    /// leaves the rest unwritten: its live messages wait again, as ``dropBacklog(of:)`` does.
    private func resumeBacklog(of id: ConnectionID) {
        guard var rest = backlogs.removeValue(forKey: id)?[...] else { return }
        while let next = rest.first {
            guard channels[id]?.channel.isOpen == true else {
                backlogs[id] = Array(rest)
                return dropBacklog(of: id)
            }
            rest.removeFirst()
            perform([next])
            if backlogs[id] != nil {
                backlogs[id]!.append(contentsOf: rest)
                return
            }
        }
    }
}
