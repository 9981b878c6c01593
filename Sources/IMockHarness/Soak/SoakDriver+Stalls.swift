import IMockCommon
import IMockNet

/// Non-readers and silent peers (docs/SOAK.md § Stalls): a device with a small receive window
/// stops reading while another device sends its user more than the server may hold for it.
/// One stall at a time.
extension SoakDriver {
    /// What a narrow connection asks of its kernel: a window the server fills within a few messages.
    static let narrowReceiveBufferBytes = 8 * 1024
    /// The in-process server's output cap: a flood passes it, an offline sync of the soak's
    /// small messages never does.
    static let inProcessOutputLimitBytes = 512 * 1024
    /// Large messages sent to a stalled device's user: 150 of about 4 KB, more than
    /// ``inProcessOutputLimitBytes``.
    static let floodMessages = 150
    static let floodPadding = String(repeating: "x", count: 4000)

    /// A narrow live device stops reading: for 0.5–3 s while it keeps pinging (a slow reader),
    /// or, one time in four, silent both ways for 6–8 s, past the server's 5 s close timer
    /// (what a peer whose link died looks like to the server until its window closes). Then it
    /// reads again: what the server had not put back reaches it, and its close, if it came.
    func stallDevice() {
        guard stalledSerial == nil else { return }
        let candidates = slotConnections.compactMap { $0 }.filter {
            $0.narrow && $0.phase == .live && $0.announcedEnd == nil && !$0.stalled
        }
        guard !candidates.isEmpty else { return }
        let connection = candidates[Int(random.next() % UInt64(candidates.count))]
        let silent = random.chance(0.25)
        connection.stalled = true
        connection.stalling = true
        // A silent peer outlived by the server is lossy by the delivery contract: what its kernel
        // acknowledged before the cut reached it, and the reset its first word after resuming
        // brings back (the server's socket is gone) makes that kernel drop what it had not read.
        if silent { markLossy(connection) }
        connection.channel?.connection.pauseReading()
        stalledSerial = connection.serial
        if silent { report.stallsSilent += 1 } else { report.stallsReading += 1 }
        flood(user(of: connection), except: connection)
        let lastsMs: Int64 = silent ? 6_000 + Int64(random.next() % UInt64(2_000)) : 500 + Int64(random.next() % UInt64(2_500))
        if !silent { keepPinging(connection) }
        _ = loop.scheduleTimer(after: .milliseconds(lastsMs)) { [self] in
            connection.stalling = false
            if stalledSerial == connection.serial { stalledSerial = nil }
            connection.channel?.connection.resumeReading()
        }
    }

    /// Sends ``floodMessages`` large messages to `user` from a live device of its app (another
    /// than the stalled one), when there is one: 15 every 50 ms, a pace the user's devices that
    /// read keep up with, narrow ones too (a burst larger than the cap closes a reader as well).
    private func flood(_ user: Int, except stalled: SoakConnection) {
        let app = plan.users[user].app
        let senders = slotConnections.compactMap { $0 }.filter {
            $0 !== stalled && $0.phase == .live && $0.announcedEnd == nil && !$0.stalling && plan.users[self.user(of: $0)].app == app
        }
        guard !senders.isEmpty else { return }
        floodedUsers.insert(user)
        floodBatch(from: senders[Int(random.next() % UInt64(senders.count))], to: user, left: Self.floodMessages)
    }

    private func floodBatch(from sender: SoakConnection, to user: Int, left: Int) {
        guard left > 0, sender.phase == .live, sender.announcedEnd == nil, phase == .running else { return }
        let batch = min(left, 15)
        for _ in 0..<batch { send(from: sender, to: user, padding: Self.floodPadding) }
        report.floodMessages += batch
        _ = loop.scheduleTimer(after: .milliseconds(50)) { [weak self, weak sender] in
            guard let self, let sender else { return }
            self.floodBatch(from: sender, to: user, left: left - batch)
        }
    }

    /// A slow reader still writes: a ping every 250 ms while it stalls.
    private func keepPinging(_ connection: SoakConnection) {
        _ = loop.scheduleTimer(after: .milliseconds(250)) { [weak self, weak connection] in
            guard let self, let connection, connection.stalling, connection.phase != .ended else { return }
            connection.sendUnanswered(#"{"op":"ping"}"#)
            self.keepPinging(connection)
        }
    }
}
