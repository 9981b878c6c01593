import IMockCore

/// One entry of a fixture's `steps`: something to do, or something to check.
public struct Step: Sendable {
    /// What it is.
    public var kind: StepKind
    /// The JSON path of the step in its file (`steps[4]`), for reports.
    public var path: String
    /// An optional label that expectations' `since` can name.
    public var label: String?
    /// Values kept from its result or answer for later steps.
    public var captures: [StepCapture] = []
    /// The step as written when it uses captured values (parsed again when it runs).
    var template: StepTemplate?
}

/// The kinds of step.
public enum StepKind: Sendable {
    /// An SDK call on a device.
    case device(DeviceAction)
    /// A REST call of the app server, with the answer it must get.
    case rest(RESTCall)
    /// A control-API call: kick, token expiry or revocation, fault, app switch.
    case control(ControlCall)
    /// A network change for one device.
    case network(NetworkChange)
    /// A move of the shared virtual clock.
    case advance(ms: Int64)
    /// Issues a token and keeps it under a name for later steps.
    case issueToken(name: String, token: TokenSource)
    /// A check of what happened.
    case expect(Expectation)
}

/// Where a step's token comes from.
public enum TokenSource: Sendable, Equatable {
    /// A fresh user token of `user` (nil: the device's user) with `ttlSeconds` (nil: the app's default),
    /// of `app` (nil: the device's).
    case fresh(user: String?, ttlSeconds: Int64?, app: String? = nil)
    /// A token issued earlier by an `issueToken` step.
    case named(String)
    /// This exact text (a malformed or forged token).
    case literal(String)
    /// An app token (client credentials): never logs a user in (S3, 202).
    case appToken
}

/// An SDK call.
public struct DeviceAction: Sendable {
    /// The device.
    public var device: String
    /// The call.
    public var call: DeviceCall
    /// What the call's completion must report (a subset of `{"error":…, …}`); nil: not checked.
    public var result: ValueMatcher?
}

/// The SDK calls a step can make.
public enum DeviceCall: Sendable {
    /// Creates the SDK instance (OpenIM: with its listener, O1).
    case initialize
    /// Registers the delegate whose callbacks the harness observes (C4).
    case addDelegate
    /// Unregisters it: nothing more is observed until it is added again (C4).
    case removeDelegate
    /// `login(user, token)`.
    case login(user: String?, token: TokenSource)
    /// The SDK's automatic login at app start from local data (ZIM offline login, Z5).
    case autoLogin(user: String?, token: TokenSource)
    /// `logout(unbindDeviceToken:)` (E8).
    case logout(unbind: Bool)
    /// `renewToken(token)` (E5).
    case renewToken(TokenSource)
    /// A 1:1 text message.
    case send(to: String, text: String)
    /// Acknowledges an offline message by id (adapters with manual acks; the reference client
    /// acks what it stored by itself, C10).
    case ack(messageId: String)
    /// Account switch (E9): logout, wait for its completion, then log in `user`.
    case switchAccount(user: String, token: TokenSource)
    /// `getLoggedInDevicesFromServer(user, token)` (S6); the result lists device names.
    case queryDevices(user: String?, token: TokenSource)
    /// The app is killed and started again: a new SDK instance that remembers the last online user.
    case restart
}

/// A REST call of the app server.
public struct RESTCall: Sendable {
    /// The HTTP method.
    public var method: String
    /// The path below `/{org}/{app}/` (`users`, `users/alice/disconnect`, `token`), or for the
    /// OpenIM API below `/openim/{org}/{app}/` (`auth/force_logout`).
    public var path: String
    /// Which REST API: the Easemob-shaped one, or OpenIM's (its `token` and `operationID` headers).
    public var api: API = .easemob
    /// The fixture app (nil: the first).
    public var app: String?
    /// The bearer token.
    public var auth: RESTAuth
    /// The JSON body.
    public var body: JSONValue?
    /// The status the answer must have.
    public var status: Int?
    /// A subset the answer's body must contain.
    public var response: ValueMatcher?

    /// The REST APIs a fixture can call.
    public enum API: String, Sendable, CaseIterable {
        /// `/{org}/{app}/…` with `Authorization: Bearer`.
        case easemob
        /// `/openim/{org}/{app}/…` with the `token` and `operationID` headers (docs/PROTOCOL-OPENIM.md).
        case openim
    }
}

/// Who a REST call is made as.
public enum RESTAuth: Sendable, Equatable {
    /// No `Authorization` header.
    case none
    /// An app token (client credentials).
    case app
    /// A token from a ``TokenSource``.
    case token(TokenSource)
}

/// A control-API call.
public struct ControlCall: Sendable {
    /// `kick`, `expireToken`, `revokeTokens`, `settings`, `fault`, `clearFaults`.
    public var action: ControlAction
    /// The fixture app (nil: the first).
    public var app: String?
    /// The status the answer must have (nil: 200).
    public var status: Int?
    /// A subset the answer's body must contain.
    public var response: ValueMatcher?
    /// A fault made when this callback is observed (after the step), not at the step.
    public var when: CallbackPattern?
}

/// The control-API actions.
public enum ControlAction: Sendable {
    /// Kick `user` (one device or all) with `code` (`POST …/kick`).
    case kick(user: String, device: String?, code: Int, reason: String?, byDeviceName: String?, byExtension: String?)
    /// Expire `user`'s tokens now (`POST …/tokens/expire`).
    case expireToken(user: String)
    /// Revoke `user`'s tokens (`POST …/tokens/revoke`).
    case revokeTokens(user: String)
    /// Change app settings (`POST …/settings`): `serviceEnabled`, `loginPolicy`, `activeUserLimit` …
    case settings(JSONValue)
    /// Inject a fault (`POST /_imock/faults`) on the app, a user or a device.
    case fault(kind: String, user: String?, device: String?, fields: [(key: String, value: JSONValue)])
    /// Clear the app's faults (`DELETE /_imock/faults?app=`).
    case clearFaults
    /// List the app's issued tokens (`GET …/tokens`, of one user when given): check what the
    /// server shows of them.
    case tokens(user: String?)
    /// List the app's live sessions (`GET …/sessions`).
    case sessions
}

/// A network change for one device, made with server faults.
public struct NetworkChange: Sendable {
    /// What happens.
    public enum Kind: String, Sendable {
        /// The connection drops and every new one fails until `restore` (or `for` passed).
        case cut
        /// Frames stop both ways, the socket stays open (a half-dead network).
        case blackhole
        /// The network is back: the device's network faults are cleared.
        case restore
    }

    /// What happens.
    public var kind: Kind
    /// The device whose network changes.
    public var device: String
    /// How long it lasts on the virtual clock; nil: until `restore`.
    public var durationMs: Int64?
}
