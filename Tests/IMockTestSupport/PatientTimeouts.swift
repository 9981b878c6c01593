/// Server timeouts for tests that are not about them.
///
/// Swift Testing starts every test of the process at once on a two-core machine, and a test
/// task waits behind the others at each `await`: in a full run a test that takes half a second
/// alone takes a minute, and one resumption can wait longer than the server's 30 s session idle
/// timeout. A fixture server idled out a device between its connection and its login (close
/// 1001, and the fixture's login failed). Fixtures therefore give `/ws` connections this long;
/// a test about the idle timeout sets its own.
public enum PatientTimeouts {
    /// The session idle timeout of fixture servers (`--session-idle-timeout`).
    public static let sessionIdle: Duration = .seconds(600)
}
