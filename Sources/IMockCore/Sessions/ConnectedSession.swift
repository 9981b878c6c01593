/// A logged-in connection, as the engine's sessions table keeps it.
///
/// Its fields live behind one immutable reference: stored inline, its ~230 bytes made every
/// slot of the table that large, and a table of 15,000 sessions has 32,768 slots (it doubles
/// at three quarters full). A change (a token renewed, a timer fired) replaces the reference;
/// sessions change a few times in their life and are read far more often.
struct ConnectedSession: Sendable {
    /// The token a session is logged in with, and the generation of its timers in the
    /// engine's ``TokenTimerQueue`` (0: none pending).
    struct Token: Sendable {
        var id: UInt64
        var issuedAtMs: Int64
        /// nil: the token does not expire.
        var expiresAtMs: Int64? {
            get { storedExpiry == Self.noExpiry ? nil : storedExpiry }
            set { storedExpiry = newValue ?? Self.noExpiry }
        }
        var timerGeneration: UInt64 = 0
        /// The expiry, `noExpiry` for none: an optional took another word, and the session's
        /// fields then a larger allocation (docs/BENCHMARKS.md, `fleet`).
        private var storedExpiry: Int64
        private static let noExpiry = Int64.min

        init(id: UInt64, issuedAtMs: Int64, expiresAtMs: Int64?) {
            self.id = id
            self.issuedAtMs = issuedAtMs
            storedExpiry = expiresAtMs ?? Self.noExpiry
        }
    }

    private final class Fields: Sendable {
        // Ordered so that the small fields end the object: 102 bytes, an allocation of 112.
        /// The session's id and device, as the user's live sessions hold them (one device).
        let live: LiveSession
        let connection: ConnectionID
        let key: UserKey
        let token: Token
        /// A dialect's delay of a second or so (clamped to Int32, ~24 days).
        let tokenWarningDelayMs: Int32
        let autoLogin: Bool
        let renewsTokenOverREST: Bool

        init(
            live: LiveSession, connection: ConnectionID, key: UserKey, autoLogin: Bool, renewsTokenOverREST: Bool,
            tokenWarningDelayMs: Int64, token: Token
        ) {
            self.live = live
            self.connection = connection
            self.key = key
            self.autoLogin = autoLogin
            self.renewsTokenOverREST = renewsTokenOverREST
            self.tokenWarningDelayMs = Int32(clamping: tokenWarningDelayMs)
            self.token = token
        }

        func with(_ token: Token) -> Fields {
            Fields(
                live: live, connection: connection, key: key, autoLogin: autoLogin,
                renewsTokenOverREST: renewsTokenOverREST, tokenWarningDelayMs: Int64(tokenWarningDelayMs), token: token)
        }
    }

    private var fields: Fields

    /// A session of `live`'s id and device (the same value the user's live sessions hold).
    init(
        live: LiveSession, connection: ConnectionID, key: UserKey, autoLogin: Bool,
        renewsTokenOverREST: Bool, tokenWarningDelayMs: Int64 = 0, tokenID: UInt64, tokenIssuedAtMs: Int64,
        tokenExpiresAtMs: Int64?
    ) {
        fields = Fields(
            live: live, connection: connection, key: key, autoLogin: autoLogin,
            renewsTokenOverREST: renewsTokenOverREST, tokenWarningDelayMs: tokenWarningDelayMs,
            token: Token(id: tokenID, issuedAtMs: tokenIssuedAtMs, expiresAtMs: tokenExpiresAtMs))
    }

    var id: SessionID { fields.live.id }
    var connection: ConnectionID { fields.connection }
    var key: UserKey { fields.key }
    var device: LoginDevice { fields.live.device }
    var autoLogin: Bool { fields.autoLogin }
    /// The device renews its token over REST (``LoginRequest/renewsTokenOverREST``).
    var renewsTokenOverREST: Bool { fields.renewsTokenOverREST }
    /// How late its token warning goes out (``LoginRequest/tokenWarningDelayMs``).
    var tokenWarningDelayMs: Int64 { Int64(fields.tokenWarningDelayMs) }

    /// The session's token and timers; setting it replaces the fields' reference.
    var token: Token {
        get { fields.token }
        set { fields = fields.with(newValue) }
    }

    var tokenID: UInt64 { fields.token.id }
    var tokenIssuedAtMs: Int64 { fields.token.issuedAtMs }
    var tokenExpiresAtMs: Int64? { fields.token.expiresAtMs }

    var info: SessionInfo {
        SessionInfo(
            connection: connection, sessionID: id, app: key.app, user: key.user, device: device,
            autoLogin: autoLogin, tokenExpiresAtMs: tokenExpiresAtMs)
    }

    var liveSession: LiveSession { fields.live }

    /// Whose session this is, for the journal.
    var subject: JournalSubject {
        JournalSubject(connection: connection, app: key.app, user: key.user, resource: device.resource)
    }
}
