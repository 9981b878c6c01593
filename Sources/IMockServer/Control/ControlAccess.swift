import IMockCore
import IMockNet

/// Who may use the control API: loopback clients (unless `--control-remote`) that present the
/// admin secret. The secret is compared in constant time.
struct ControlAccess: Sendable {
    let secret: String
    let allowRemote: Bool

    func check(_ request: HTTPRequest, context: HTTPRequestContext) throws(ControlError) {
        guard allowRemote || context.peer?.isLoopback == true else { throw .notLoopback }
        let header = request.headers["Authorization"] ?? ""
        let prefix = "Bearer "
        guard header.hasPrefix(prefix), Crypto.secretsEqual(Array(header.utf8.dropFirst(prefix.utf8.count)), Array(secret.utf8))
        else { throw .unauthorized }
    }
}
