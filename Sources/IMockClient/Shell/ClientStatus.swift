/// The client's state as the synchronous queries read it, published after every event.
struct ClientStatus: Sendable, Equatable {
    var loginStatus: LoginStatus = .logout
    var isConnected = false
    var currentUsername: String?
    var lastOnlineUser: String?
    var tokenExpiresAt: Int64?
}
