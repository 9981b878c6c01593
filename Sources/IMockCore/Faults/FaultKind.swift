/// What a fault does (docs/CONTROL-API.md, "Faults").
public enum FaultKind: Sendable, Equatable {
    /// Close matching connections without a close frame (TCP FIN, the client sees 1006).
    case drop
    /// Reset matching connections (TCP RST).
    case reset
    /// Stop reading from and writing to matching connections but keep the socket open; what
    /// the server would have sent waits and flows, in order, when the fault ends.
    case blackhole
    /// Hold every server frame (and close) to matching connections for `ms` milliseconds (of
    /// real time, or of the server clock under `--clock virtual`) plus a draw from 0 to
    /// `jitterMs` per frame, keeping their order.
    case delay(ms: Int64, jitterMs: Int64 = 0)
    /// Discard the next `count` server frames to matching connections (the fault ends then).
    case dropFrames(count: Int)
    /// Discard `pong` replies to the `ping` op.
    case noPong
    /// Hold `login.ok` / `login.error` (and what follows on that connection) for `ms`
    /// milliseconds of real time.
    case holdLogin(ms: Int64)
    /// `logout` with `unbindDeviceToken` fails (212) and the session stays (rule E8).
    case failUnbind
    /// The data sync of these types finishes with an error.
    case failSync(types: Set<SyncType>)
    /// Close a matching connection without a close frame once more than `bytes` of message
    /// payload passed in `direction` (per connection): the frame that would cross the limit
    /// is not sent (downstream) or not read (upstream).
    case limitData(bytes: Int64, direction: FaultDirection)
    /// Write what matching connections are sent in slices of at most `bytes`, `delayMs` apart
    /// (real time: bytes on a socket), so a client reads frames cut anywhere.
    case slicer(bytes: Int, delayMs: Int64)
    /// Write what matching connections are sent at about `bytesPerSecond` (real time).
    case bandwidth(bytesPerSecond: Int64)

    /// The `kind` name of the control API.
    public var name: String {
        switch self {
        case .drop: "drop"
        case .reset: "reset"
        case .blackhole: "blackhole"
        case .delay: "delay"
        case .dropFrames: "dropFrames"
        case .noPong: "noPong"
        case .holdLogin: "holdLogin"
        case .failUnbind: "failUnbind"
        case .failSync: "failSync"
        case .limitData: "limitData"
        case .slicer: "slicer"
        case .bandwidth: "bandwidth"
        }
    }

    /// Every kind name, in documentation order.
    public static let names = [
        "drop", "reset", "blackhole", "delay", "dropFrames", "noPong", "holdLogin", "failUnbind", "failSync", "limitData", "slicer",
        "bandwidth",
    ]

    /// How the kind slices a connection's writes (slicer, bandwidth), nil for the others. A
    /// bandwidth is slices of a hundredth of a second's bytes (at least one), each after the
    /// time its bytes take.
    public var slicing: FaultSlicing? {
        switch self {
        case .slicer(let bytes, let delayMs):
            return FaultSlicing(bytes: bytes, delayNs: delayMs * 1_000_000)
        case .bandwidth(let rate):
            let slice = max(1, rate / 100)
            return FaultSlicing(bytes: Int(slice), delayNs: slice * 1_000_000_000 / rate)
        default:
            return nil
        }
    }

    /// Whether the fault ends a connection (drop, reset): without a duration it acts once, on
    /// the connections open when it is created, and is not kept.
    public var endsConnection: Bool {
        switch self {
        case .drop, .reset: true
        default: false
        }
    }
}

/// Which way a network toxic acts.
public enum FaultDirection: String, Sendable, Equatable, CaseIterable {
    /// Server to client.
    case downstream
    /// Client to server.
    case upstream
}

/// How a connection's writes are sliced: at most `bytes` per write, `delayNs` apart.
public struct FaultSlicing: Sendable, Equatable {
    /// The most bytes one write takes.
    public var bytes: Int
    /// The time between two writes, in nanoseconds of real time.
    public var delayNs: Int64
}
