/// A recording that cannot be exported: not JSON, not a recording, cut short, or an event that
/// is not as docs/RECORD.md describes. `imock record export` prints it and exits 65.
public struct RecordingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where: a JSON path (`events[12].atMs`), or empty for the whole document.
    public var path: String
    /// What is wrong.
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}
