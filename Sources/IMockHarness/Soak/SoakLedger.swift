/// Every message of a soak, sent and received, and the verdict on each (docs/SOAK.md § What
/// is counted). Pure: the driver reports events with the time it saw them (milliseconds of
/// real time), the ledger answers with figures.
///
/// The delivery rules it checks are docs/PROTOCOL.md's:
/// - a message the server accepted (`send.ok`) to a user with live sessions goes out once on each
///   of them, with no ack and no second chance (at most once); to a user with none it is
///   queued and comes in every offline sync until a device acks it (at least once, exactly
///   once with acks). So a message is never both live and offline, never twice on one
///   connection, and never again after its `ack.ok` to a connection whose login came later;
/// - ids grow in the order the server accepted the messages, and every connection receives
///   them in that order.
///
/// A message the server accepted and nobody received is **lost** — unless a device of its
/// recipient had a *lossy* connection (a network fault touched it, or the device dropped it)
/// from before the send until after the send was answered; the server may have pushed the
/// message there, and at-most-once delivery allows that loss: it is **excused**, and counted.
/// A lossy connection's window lasts until the server is known to have no session for it
/// (its close frame arrived, or the session list no longer shows it), because the server
/// keeps pushing to a connection whose device is gone until it notices.
struct SoakLedger {
    private struct Message {
        var recipient: Int32
        var sentAtMs: Int64
        var acceptedAtMs: Int64 = -1
        var messageID: UInt64 = 0
        var refused = false
        var live = false
        /// The trusted connection it came live on, first.
        var liveSerial: Int32 = -1
        var offline = false
        /// Received without knowing whether in an offline sync (on a lossy connection).
        var delivered = false
        /// Connections with a serial at or above this logged in after the ack was confirmed.
        var ackBound: Int32 = 0
    }

    private struct Connection {
        let user: Int
        let startedAtMs: Int64
        var lossy = false
        /// The last id received, per order domain (one for imock JSON, one per sender otherwise).
        var lastIDs: [String: UInt64] = [:]
        var received: Set<UInt64> = []
    }

    private struct Window {
        let fromMs: Int64
        var toMs: Int64?
    }

    private var messages: [Message] = []
    private var connections: [Int: Connection] = [:]
    /// Lossy windows per user.
    private var windows: [Int: [Window]] = [:]
    /// Ended lossy connections the server may still hold: user and window index.
    private var unsettled: [Int: (user: Int, window: Int)] = [:]
    private(set) var figures = SoakMessageFigures()

    // MARK: Connections

    /// A connection sent its login (or is about to).
    mutating func connectionStarted(_ serial: Int, user: Int, atMs: Int64) {
        connections[serial] = Connection(user: user, startedAtMs: atMs)
    }

    /// A fault touched the connection, or its device is dropping it: from now on what it
    /// receives is not trusted to say offline from live, and a message missing for its user
    /// while it lasts is excused.
    mutating func connectionLossy(_ serial: Int) {
        connections[serial]?.lossy = true
    }

    func isLossy(_ serial: Int) -> Bool { connections[serial]?.lossy == true }

    /// The connection ended. `serverClosed`: its close frame from the server arrived, so the
    /// server holds no session for it any more.
    mutating func connectionEnded(_ serial: Int, serverClosed: Bool, atMs: Int64) {
        guard let connection = connections.removeValue(forKey: serial), connection.lossy else { return }
        windows[connection.user, default: []].append(Window(fromMs: connection.startedAtMs, toMs: serverClosed ? atMs : nil))
        if !serverClosed { unsettled[serial] = (connection.user, windows[connection.user]!.count - 1) }
    }

    /// The server no longer holds a session for this ended lossy connection (its session list
    /// says so, or a kick of it was answered).
    mutating func connectionGone(_ serial: Int, atMs: Int64) {
        guard let (user, window) = unsettled.removeValue(forKey: serial) else { return }
        windows[user]?[window].toMs = atMs
    }

    /// Ended lossy connections whose sessions the server may still hold.
    var unsettledConnections: [Int] { unsettled.keys.sorted() }

    // MARK: Messages

    /// Message `seq` (0, 1, 2 … in sending order) was written to `user`.
    mutating func sent(_ seq: Int, to user: Int, atMs: Int64) {
        precondition(seq == messages.count, "messages are numbered in sending order")
        messages.append(Message(recipient: Int32(user), sentAtMs: atMs))
        figures.sent += 1
    }

    /// Its `send.ok` arrived.
    mutating func accepted(_ seq: Int, messageID: UInt64, atMs: Int64) {
        guard messages.indices.contains(seq) else { return }
        if messages[seq].messageID != 0, messages[seq].messageID != messageID {
            figures.misdelivered += 1
            note("message \(seq): send.ok says id \(messageID), a device received it as \(messages[seq].messageID)")
        }
        messages[seq].messageID = messageID
        messages[seq].acceptedAtMs = atMs
        figures.accepted += 1
    }

    /// Its `send` was refused with `code`.
    mutating func refused(_ seq: Int, code: Int) {
        guard messages.indices.contains(seq) else { return }
        messages[seq].refused = true
        figures.refused[code, default: 0] += 1
    }

    /// Connection `serial` received message `seq` as id `messageID`, inside an offline sync or
    /// live. `tellsOfflineFromLive` false: the connection's dialect cannot say which (msync's
    /// device pulls its queues alike; its wire counts what the first pull finds as offline,
    /// live messages of the moment included), so the receipt neither marks the message nor is
    /// judged by where it came before.
    mutating func received(
        _ seq: Int, messageID: UInt64, on serial: Int, offline: Bool, orderedPer domain: String = "",
        tellsOfflineFromLive: Bool = true
    ) {
        guard var connection = connections[serial] else { return }
        defer { connections[serial] = connection }
        guard messages.indices.contains(seq), Int(messages[seq].recipient) == connection.user else {
            figures.misdelivered += 1
            note("message \(seq) reached user #\(connection.user), who was not its recipient")
            return
        }
        var message = messages[seq]
        defer { messages[seq] = message }
        if message.messageID == 0 {
            message.messageID = messageID
        } else if message.messageID != messageID {
            figures.misdelivered += 1
            note("message \(seq) arrived as id \(messageID), accepted as \(message.messageID)")
        }
        // Order: ids grow on every connection (a repeat is a duplicate, counted below).
        let lastID = connection.lastIDs[domain, default: 0]
        if messageID < lastID {
            figures.outOfOrder += 1
            note("message \(seq) (id \(messageID)) after id \(lastID) on connection \(serial)")
        }
        connection.lastIDs[domain] = max(lastID, messageID)
        guard connection.received.insert(messageID).inserted else {
            duplicate(seq, "twice on connection \(serial)")
            return
        }
        let trusted = !connection.lossy && tellsOfflineFromLive
        if offline, message.ackBound > 0, serial >= Int(message.ackBound) {
            duplicate(seq, "in the offline sync of connection \(serial), which logged in after its ack")
        } else if trusted, offline, message.live, connections[Int(message.liveSerial)] != nil {
            // Once the live connection has closed, the server may have put the message back:
            // it counts a live message delivered when it saw the device's TCP acknowledge it,
            // and a close can come first (docs/PROTOCOL.md § Delivery). Before, it cannot.
            duplicate(seq, "offline on connection \(serial) after it was delivered live on connection \(message.liveSerial)")
        } else if trusted, !offline, message.offline {
            duplicate(seq, "live on connection \(serial) after it came offline")
        } else if offline {
            // The first delivery decides where it counts; later ones are allowed repeats.
            if message.delivered { figures.redelivered += 1 } else { figures.deliveredOffline += 1 }
            if trusted { message.offline = true }
        } else {
            if message.delivered { figures.fanOut += 1 } else { figures.deliveredLive += 1 }
            if trusted, !message.live {
                message.live = true
                message.liveSerial = Int32(clamping: serial)
            }
        }
        message.delivered = true
    }

    /// The `ack.ok` of message `seq` arrived; `nextSerial` is the serial the next connection
    /// will get (every connection from it on logs in after the ack).
    mutating func ackConfirmed(_ seq: Int, nextSerial: Int) {
        guard messages.indices.contains(seq) else { return }
        if messages[seq].ackBound == 0 { figures.acked += 1 }
        messages[seq].ackBound = Int32(clamping: nextSerial)
    }

    /// Decides on every message not received: unconfirmed, excused or lost.
    mutating func finish() -> SoakMessageFigures {
        for (seq, message) in messages.enumerated() where !message.refused {
            if message.delivered {
                if message.acceptedAtMs < 0 { figures.deliveredUnconfirmed += 1 }
                continue
            }
            guard message.acceptedAtMs >= 0 else {
                figures.unconfirmed += 1
                continue
            }
            let overlapping = (windows[Int(message.recipient)] ?? []).contains { window in
                window.fromMs <= message.acceptedAtMs && (window.toMs ?? .max) >= message.sentAtMs
            }
            if overlapping {
                figures.excused += 1
            } else {
                figures.lost += 1
                note("message \(seq) (id \(message.messageID)) to user #\(message.recipient), accepted at \(message.acceptedAtMs) ms, never arrived")
            }
        }
        return figures
    }

    private mutating func duplicate(_ seq: Int, _ why: String) {
        figures.duplicated += 1
        note("message \(seq) \(why)")
    }

    private mutating func note(_ example: String) {
        if figures.examples.count < 10 { figures.examples.append(example) }
    }
}

/// What happened to the messages of a soak (docs/SOAK.md § What is counted).
public struct SoakMessageFigures: Sendable, Equatable {
    /// Written to the server.
    public var sent = 0
    /// Answered with `send.ok`.
    public var accepted = 0
    /// Answered with an error, by code (4: the recipient's offline queue is full).
    public var refused: [Int: Int] = [:]
    /// No `send.ok` arrived (the sender's connection ended first), and nobody received it.
    public var unconfirmed = 0
    /// Received live first.
    public var deliveredLive = 0
    /// Received in an offline sync first.
    public var deliveredOffline = 0
    /// Received, though its `send.ok` never arrived (the sender's connection ended first).
    public var deliveredUnconfirmed = 0
    /// A live message on a second (third …) device of its recipient (or on a lossy
    /// connection, which cannot tell live from offline).
    public var fanOut = 0
    /// An offline message again at a later login, not acked before it, or on another device
    /// of its recipient (allowed).
    public var redelivered = 0
    /// Acked by a device (`ack.ok`).
    public var acked = 0
    /// Accepted, never received, and no lossy connection explains it.
    public var lost = 0
    /// Accepted, never received, while a lossy connection of its recipient may have taken it.
    public var excused = 0
    /// Received where the delivery rules forbid a second copy.
    public var duplicated = 0
    /// Received after a later id on the same connection.
    public var outOfOrder = 0
    /// Received by a user it was not sent to, or with another id than its `send.ok` gave.
    public var misdelivered = 0
    /// Examples, for the report: a few lost or duplicated messages and why.
    public var examples: [String] = []

    /// No figures yet.
    public init() {}
}
