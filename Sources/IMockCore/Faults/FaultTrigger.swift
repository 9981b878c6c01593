/// When a fault starts acting on a connection (docs/CONTROL-API.md, "Triggers"): without one it
/// acts from its creation; with one it waits, per matching connection, for an event of the
/// send path. Counted from the fault's creation.
public enum FaultTrigger: Sendable, Equatable {
    /// After this many frames were sent to the connection: the next frame is the first it acts on.
    case afterFrames(Int)
    /// At the first frame of this kind sent to the connection (that frame included).
    case on(FaultEvent)
}

/// A kind of frame the send path sees, whatever the dialect: derived from what the engine (or a
/// dialect's answer to a pull) sent, never from the wire bytes.
public enum FaultEvent: String, Sendable, Equatable, CaseIterable {
    /// The answer to a login (accepted or refused).
    case loginAnswer
    /// Any frame of the offline sync: its start and end, the offline messages between them, a
    /// page a device pulled.
    case offlineSync
    /// A frame carrying queued messages: an offline message the engine pushes in its sync, or
    /// the answer to a device's pull (msync `SYNC`, OpenIM 1002).
    case syncPage
    /// A live chat message pushed to the device (outside the offline sync).
    case push
}
