import IMockCore

/// A vendor callback before it gets a device and a time: name and arguments.
struct VendorCall: Equatable {
    var name: String
    var arguments: [CallbackArgument]

    init(_ name: String, _ arguments: [CallbackArgument] = []) {
        self.name = name
        self.arguments = arguments
    }
}

extension SDKProfile {
    /// The profile's callbacks for `callback`, in order: the thin table of each vendor.
    func calls(for callback: CanonicalCallback) -> [VendorCall] {
        switch self {
        case .easemob: EasemobTable.calls(for: callback)
        case .openim: OpenIMTable.calls(for: callback)
        case .zim: ZIMTable.calls(for: callback)
        }
    }
}

extension Optional where Wrapped == ClientError {
    /// An `EMError`-like argument: `null`, or `{code, message}`.
    var json: JSONValue {
        guard let error = self else { return .null }
        return .object([("code", .int(Int64(error.code))), ("message", .string(error.message))])
    }
}

/// Easemob iOS V5 (seeds 000, 004): two connection states only (C3); account callbacks per code (C6).
enum EasemobTable {
    static func calls(for callback: CanonicalCallback) -> [VendorCall] {
        switch callback {
        case .databaseOpened(let user, let error):
            return [VendorCall("onDatabaseOpened", [.init("error", error.json), .init("username", .string(user))])]
        case .connectionAttempt, .connectionAttemptFailed, .loginAborted:
            return []  // C3: no "connecting" or "reconnect failed" state
        case .connected:
            return [state("connected")]
        case .connectionLost:
            return [state("disconnected")]
        case .loginCompleted(let user, let error):
            return [VendorCall("loginCompletion", [.init("username", .string(user)), .init("error", error.json)])]
        case .sessionEnded(let reason, let wasConnected):
            return (wasConnected ? [state("disconnected")] : []) + [accountCall(reason)].compactMap { $0 }
        case .logoutCompleted(let error, _):
            return [VendorCall("logoutCompletion", [.init("error", error.json)])]
        case .tokenWillExpire:
            return [VendorCall("tokenWillExpire", [.init("errorCode", 109)])]
        case .renewTokenCompleted(_, let error):
            return [VendorCall("renewTokenCompletion", [.init("error", error.json)])]
        case .offlineSyncStarted:
            return [VendorCall("onOfflineMessageSyncStart")]
        case .offlineSyncFinished:
            return [VendorCall("onOfflineMessageSyncFinish")]
        case .dataSyncStarted(let type):
            return [VendorCall("syncDataStart", [.init("type", .string(type.rawValue))])]
        case .dataSyncFinished(let type, let error):
            return [VendorCall("syncDataFinished", [.init("error", error.json), .init("type", .string(type.rawValue))])]
        case .messageReceived(let message, _):
            return [VendorCall("messagesDidReceive", messageArguments(message))]
        case .sendCompleted(_, let messageId, let error):
            return [
                VendorCall(
                    "sendMessageCompletion", [.init("messageId", messageId.map { .string($0) } ?? .null), .init("error", error.json)])
            ]
        }
    }

    static func state(_ value: String) -> VendorCall {
        VendorCall("connectionStateDidChange", [.init("state", .string(value))])
    }

    /// C6: 206/220 → other device (with the new device's info, E12); 207 → removed; 305 →
    /// forbidden; every other kick (202, 214, 216, 217, 8, …) → forced to logout with the code (E13).
    static func accountCall(_ reason: SessionEndReason) -> VendorCall? {
        switch reason {
        case .kicked(let code, let by) where code == 206 || code == 220:
            let info: JSONValue =
                by.map { .object([("deviceName", .string($0.deviceName)), ("extensionInfo", .string($0.extensionInfo))]) }
                ?? .null
            return VendorCall("userAccountDidLoginFromOtherDevice", [.init("info", info)])
        case .kicked(207, _): return VendorCall("userAccountDidRemoveFromServer")
        case .kicked(305, _): return VendorCall("userDidForbidByServer")
        case .kicked(let code, _): return VendorCall("userAccountDidForcedToLogout", [.init("code", .int(Int64(code)))])
        case .tokenExpired: return VendorCall("tokenDidExpire", [.init("errorCode", 108)])
        case .tokenInvalid(let error):
            return VendorCall("userAccountDidForcedToLogout", [.init("code", .int(Int64(error.code)))])
        case .reconnectGaveUp: return nil
        }
    }
}

func messageArguments(_ message: ChatMessage) -> [CallbackArgument] {
    [.init("messageId", .string(message.messageId)), .init("from", .string(message.from)), .init("text", .string(message.text))]
}

/// OpenIM iOS (seed 001): connection callbacks given at init (O1, O2); kicks and token errors (O6, O7).
enum OpenIMTable {
    static func calls(for callback: CanonicalCallback) -> [VendorCall] {
        switch callback {
        case .connectionAttempt: return [VendorCall("onConnecting")]
        case .connectionAttemptFailed(let error): return [failure("onConnectFailure", error)]
        case .connected: return [VendorCall("onConnectSuccess")]
        case .loginCompleted(_, nil): return [VendorCall("loginSuccess")]
        case .loginCompleted(_, let error?): return [failure("loginFailure", error)]
        case .sessionEnded(.kicked, _): return [VendorCall("onKickedOffline")]
        case .sessionEnded(.tokenExpired, _): return [VendorCall("onUserTokenExpired")]
        case .sessionEnded(.tokenInvalid(let error), _):
            return [VendorCall("onUserTokenInvalid", [.init("message", .string(error.message))])]
        case .logoutCompleted(nil, _): return [VendorCall("logoutSuccess")]
        case .logoutCompleted(let error?, _): return [failure("logoutFailure", error)]
        case .renewTokenCompleted(_, nil): return [VendorCall("renewTokenSuccess")]
        case .renewTokenCompleted(_, let error?): return [failure("renewTokenFailure", error)]
        case .messageReceived(let message, _): return [VendorCall("onRecvNewMessage", messageArguments(message))]
        case .sendCompleted(_, let messageId?, nil):
            return [VendorCall("sendMessageSuccess", [.init("messageId", .string(messageId))])]
        case .sendCompleted(_, _, let error):
            return [failure("sendMessageFailure", error ?? ClientError(code: 0, message: ""))]
        case .databaseOpened, .connectionLost, .loginAborted, .sessionEnded(.reconnectGaveUp, _), .tokenWillExpire,
            .offlineSyncStarted, .offlineSyncFinished, .dataSyncStarted, .dataSyncFinished:
            return []  // no such callback in the OpenIM iOS SDK
        }
    }

    static func failure(_ name: String, _ error: ClientError) -> VendorCall {
        VendorCall(name, [.init("code", .int(Int64(error.code))), .init("message", .string(error.message))])
    }
}

/// ZIM (seed 002): `connectionStateChanged(state, event)` carries login state (Z1).
enum ZIMTable {
    static func calls(for callback: CanonicalCallback) -> [VendorCall] {
        switch callback {
        case .connectionAttempt(0): return [state("Connecting", "ActiveLogin")]
        case .connected: return [state("Connected", "Success")]
        case .connectionLost: return [state("Reconnecting", "LoginInterrupted")]
        case .loginAborted(let error):
            return [state("Disconnected", error.code == SDKProfile.zim.rules.loginTimeout ? "LoginTimeout" : "ActiveLogin")]
        case .loginCompleted(_, let error):
            return [VendorCall("loginCallback", [.init("errorCode", .int(Int64(error?.code ?? 0)))])]
        case .sessionEnded(.kicked, _), .sessionEnded(.tokenInvalid, _): return [state("Disconnected", "KickedOut")]
        case .sessionEnded(.tokenExpired, _): return [state("Disconnected", "TokenExpired")]
        case .sessionEnded(.reconnectGaveUp, _): return [state("Disconnected", "LoginInterrupted")]
        case .logoutCompleted(let error, let loggedOut):
            // A logout cut off by a kick or expiry (6000122) follows the session's own Disconnected.
            return (loggedOut && error == nil ? [state("Disconnected", "Success")] : [])
                + [VendorCall("logoutCallback", [.init("errorCode", .int(Int64(error?.code ?? 0)))])]
        case .tokenWillExpire(_, let remainingMs):
            return [VendorCall("onTokenWillExpire", [.init("second", .int(max(0, remainingMs) / 1000))])]
        case .renewTokenCompleted(_, let error):
            return [VendorCall("renewTokenCallback", [.init("errorCode", .int(Int64(error?.code ?? 0)))])]
        case .messageReceived(let message, _): return [VendorCall("receivePeerMessage", messageArguments(message))]
        case .sendCompleted(_, let messageId, let error):
            return [
                VendorCall(
                    "messageSentCallback",
                    [.init("messageId", messageId.map { .string($0) } ?? .null), .init("errorCode", .int(Int64(error?.code ?? 0)))])
            ]
        case .connectionAttempt, .connectionAttemptFailed, .databaseOpened, .offlineSyncStarted, .offlineSyncFinished,
            .dataSyncStarted, .dataSyncFinished:
            return []
        }
    }

    static func state(_ state: String, _ event: String) -> VendorCall {
        VendorCall("connectionStateChanged", [.init("state", .string(state)), .init("event", .string(event))])
    }
}
