/// A change to the stored side that live sessions must feel (a REST call's effect): the REST
/// layer has already changed the directory; the domain kicks the devices.
public enum DomainChange: Sendable, Equatable {
    /// Kick every device of the user (`resource` nil) or one device, code 217.
    case disconnectUser(AppKey, username: String, resource: String?)
    /// The user was deleted: kick every device with 207, drop the offline queue.
    case userDeleted(AppKey, username: String)
    /// The password changed: kick every device with 216 (old tokens are already refused).
    case passwordChanged(AppKey, username: String)
    /// The user was banned: kick every device with 305.
    case userDeactivated(AppKey, username: String)
    /// OpenIM force logout: kick the user's devices on one OpenIM platform with 2002.
    case openIMForceLogout(AppKey, username: String, platformID: Int)
}

extension Domain {
    /// The outputs for live sessions of `changes`, in order.
    public mutating func apply(_ changes: [DomainChange], nowMs: Int64) -> [SessionOutput] {
        changes.flatMap { change -> [SessionOutput] in
            switch change {
            case .disconnectUser(let app, let user, let resource):
                engine.disconnect(app: app, user: user, resource: resource, nowMs: nowMs)
            case .userDeleted(let app, let user):
                engine.userDeleted(app: app, user: user, nowMs: nowMs)
            case .passwordChanged(let app, let user):
                engine.passwordChanged(app: app, user: user, nowMs: nowMs)
            case .userDeactivated(let app, let user):
                engine.userDeactivated(app: app, user: user, nowMs: nowMs)
            case .openIMForceLogout(let app, let user, let platformID):
                engine.forceLogout(app: app, user: user, platformID: platformID, nowMs: nowMs)
            }
        }
    }
}
