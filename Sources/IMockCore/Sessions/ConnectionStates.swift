/// The engine's ``ConnectionState`` of each open connection, each packed in one word: a
/// `ConnectionState` takes two (a session id and a tag), and the table has 32,768 slots for
/// 15,000 connections (docs/BENCHMARKS.md, `fleet`). Reads and writes as a dictionary does.
struct ConnectionStates: Sendable {
    private var packed: [ConnectionID: UInt64] = [:]

    private static let awaitingLogin: UInt64 = 0
    private static let closing: UInt64 = .max

    /// The number of connections.
    var count: Int { packed.count }

    subscript(connection: ConnectionID) -> ConnectionState? {
        get { packed[connection].map(Self.unpack) }
        set { packed[connection] = newValue.map(Self.pack) }
    }

    /// Removes the connection's state, returning it.
    mutating func removeValue(forKey connection: ConnectionID) -> ConnectionState? {
        packed.removeValue(forKey: connection).map(Self.unpack)
    }

    private static func pack(_ state: ConnectionState) -> UInt64 {
        switch state {
        case .awaitingLogin: return awaitingLogin
        case .closing: return closing
        case .loggedIn(let session):
            // Session serials start at 1 and never reach the top: neither marker is an id.
            precondition(session.rawValue != awaitingLogin && session.rawValue != closing, "session id \(session.rawValue)")
            return session.rawValue
        }
    }

    private static func unpack(_ word: UInt64) -> ConnectionState {
        switch word {
        case awaitingLogin: .awaitingLogin
        case closing: .closing
        default: .loggedIn(SessionID(rawValue: word))
        }
    }
}
