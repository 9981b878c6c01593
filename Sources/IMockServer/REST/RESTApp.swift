import IMockCore

/// What a REST or OpenIM handler knows of the app its path names: identity, settings and
/// credentials — not its users. A handler that held a copy of the whole ``App`` held the user
/// table twice, so every registration it made copied the table whole (quadratic over a run
/// that registers thousands of users); users are looked up in the directory instead.
struct RESTApp {
    /// `org#app`.
    let key: AppKey
    /// The app's UUID (`application` in envelopes).
    let uuid: String
    /// Its settings when the request came.
    let settings: AppSettings
    /// The `client_secret` (OpenIM's `/auth/get_admin_token`).
    let clientSecret: String

    init(_ app: App) {
        key = app.key
        uuid = app.uuid
        settings = app.settings
        clientSecret = app.clientSecret
    }
}

extension Directory {
    /// The user of canonical name `name` in the app `key`, if there is one.
    func userNamed(_ name: String, in key: AppKey) -> User? {
        apps[key]?.users[name]
    }

    /// Whether the app `key` has a user of canonical name `name`.
    func hasUser(_ name: String, in key: AppKey) -> Bool {
        userNamed(name, in: key) != nil
    }
}
