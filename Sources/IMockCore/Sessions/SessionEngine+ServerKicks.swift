extension SessionEngine {
    /// The user's password changed (the directory already refuses the old tokens): every
    /// device gets 216.
    public mutating func passwordChanged(app: AppKey, user: String, nowMs: Int64) -> [SessionOutput] {
        kick(app: app, user: user, resource: nil, code: KickCode.kickedByPasswordChange.rawValue,
             reason: "the password was changed", by: nil, nowMs: nowMs)
    }

    /// REST force-logout of one resource, or of every device when `resource` is nil: 217.
    public mutating func disconnect(app: AppKey, user: String, resource: String?, nowMs: Int64) -> [SessionOutput] {
        kick(app: app, user: user, resource: resource, code: KickCode.kickedByOtherDevice.rawValue,
             reason: "forced offline by the server", by: nil, nowMs: nowMs)
    }

    /// OpenIM force logout of one platform (`/auth/force_logout`; the REST layer has marked the
    /// tokens kicked): every session of `user` on OpenIM platform `platformID` gets 2002.
    public mutating func forceLogout(app: AppKey, user: String, platformID: Int, nowMs: Int64) -> [SessionOutput] {
        guard let key = UserKey(app: app, rawUser: user) else { return [] }
        let victims = (users[key]?.live.all ?? []).map(\.id).filter {
            sessions[$0]?.device.platform.openIMPlatformID == platformID
        }
        return victims.flatMap {
            kickSession(
                $0, code: OpenIMKickCode.kickOnlineMessage.rawValue, reason: "forced offline by the server", by: nil,
                nowMs: nowMs)
        }
    }

    /// The user was deleted: every device gets 207; the offline queue is dropped.
    public mutating func userDeleted(app: AppKey, user: String, nowMs: Int64) -> [SessionOutput] {
        let outputs = kick(app: app, user: user, resource: nil, code: KickCode.userRemoved.rawValue,
                           reason: "the user was removed", by: nil, nowMs: nowMs)
        if let key = UserKey(app: app, rawUser: user) {
            if offlineQueues.removeValue(forKey: key) != nil {
                changeLog.record(.queueDropped(app, recipient: key.user))
                // Its messages are gone: no connection holds them any longer.
                for (connection, held) in inFlight where held.key == key { inFlight[connection] = nil }
            }
            users[key]?.lastLogin = nil
            if users[key]?.isEmpty == true { users[key] = nil }
        }
        return outputs
    }

    /// The user was deactivated (banned): every device gets 305 (`userDidForbidByServer`);
    /// logins are refused with 305 while the directory says the user is not activated.
    public mutating func userDeactivated(app: AppKey, user: String, nowMs: Int64) -> [SessionOutput] {
        kick(app: app, user: user, resource: nil, code: KickCode.serviceForbidden.rawValue,
             reason: "the user is deactivated", by: nil, nowMs: nowMs)
    }

    /// The app's service was disabled: every session of the app gets 305; logins are refused
    /// with 305 while the app's `serviceEnabled` setting is false.
    public mutating func appServiceDisabled(app: AppKey, nowMs: Int64) -> [SessionOutput] {
        let victims = sessionIDs(in: app)
        var outputs: [SessionOutput] = []
        outputs.reserveCapacity(victims.count * 5)  // journal, end and up to two timer cancels each
        for id in victims {
            kickSession(
                id, code: KickCode.serviceForbidden.rawValue, reason: "the app service is disabled", by: nil,
                nowMs: nowMs, into: &outputs)
        }
        return outputs
    }

    /// Kicks the sessions of `user` (one `resource`, or all when nil), earliest login first,
    /// with any `code` (journalled, then ended as kicked). Used by the REST effects above
    /// and by the control API (e.g. 8 for a DAU/MAU limit, 214, 220).
    public mutating func kick(
        app: AppKey, user: String, resource: String?, code: Int, reason: String, by: KickedBy?, nowMs: Int64
    ) -> [SessionOutput] {
        guard let key = UserKey(app: app, rawUser: user) else { return [] }
        guard let live = users[key]?.live, !live.isEmpty else { return [] }
        let victims = resource.map { live.sessions(withResource: $0) } ?? live.all
        var outputs: [SessionOutput] = []
        for victim in victims { kickSession(victim.id, code: code, reason: reason, by: by, nowMs: nowMs, into: &outputs) }
        return outputs
    }
}
