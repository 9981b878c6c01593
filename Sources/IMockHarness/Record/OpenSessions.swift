import IMockCore

/// Which recorded connections hold an open session, and which export device each is: a
/// connection is open from its `login.ok` until it is closed, kicked or logged out.
struct OpenSessions {
    private var open: Set<Int64> = []
    private var ended: Set<Int64> = []
    private var latest: [String: Int64] = [:]

    /// Follows a recorded event.
    mutating func note(_ event: JSONValue) {
        guard let connection = event["connection"]?.intValue else { return }
        let frame = event["event"]?["frame"]
        if event["out"]?.stringValue == "journal", frame?["op"]?.stringValue == "login.ok" {
            // A fault may drop the connection before its login's answer is journalled.
            if !ended.contains(connection) { open.insert(connection) }
        } else if event["in"]?.stringValue == "disconnected" {
            open.remove(connection)
            ended.insert(connection)
        } else if event["out"]?.stringValue == "loggedOut"
            || event["event"]?["type"]?.stringValue == "closed" || frame?["op"]?.stringValue == "kicked"
        {
            open.remove(connection)
        }
    }

    /// Whether `device` can log in on `connection`: its latest connection is that one, or no
    /// longer holds a session.
    func free(_ device: String, for connection: Int64) -> Bool {
        guard let current = latest[device] else { return true }
        return current == connection || !open.contains(current)
    }

    /// Whether `device`'s latest connection is still open.
    func isOpen(_ device: String) -> Bool { latest[device].map(open.contains) ?? false }

    /// `connection` is now `device`'s.
    mutating func assign(_ connection: Int64, to device: String) { latest[device] = connection }
}
