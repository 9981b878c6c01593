/// A server a scenario can run against.
public enum ServerKind: String, Sendable, CaseIterable, Comparable {
    /// `imock serve` in a child process, the server being measured.
    case imock
    /// The Python asyncio mock under `bench/` (aiohttp + websockets): what a team would write
    /// by hand instead.
    case python
    /// nginx answering fixed JSON: the HTTP ceiling.
    case nginx

    public static func < (lhs: ServerKind, rhs: ServerKind) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
