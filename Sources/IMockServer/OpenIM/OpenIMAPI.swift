import IMockCore

/// OpenIM's REST API under an app's OpenIM base path `/openim/{org}/{app}` (so an SDK's
/// `apiAddr` is `http://host:port/openim/{org}/{app}` and its `wsAddr` the same with `ws://`):
/// the routes an SDK and an app server use at login (docs/PROTOCOL-OPENIM.md).
public enum OpenIMAPI {
    /// The base path of an app's OpenIM face.
    public static let basePath = "/openim/{org}/{app}"

    /// Every route, all `POST`.
    public static let routes: [RESTRoute] = [
        RESTRoute(method: "POST", pattern: basePath + "/auth/get_admin_token", handler: OpenIMAuthRoutes.adminToken),
        RESTRoute(method: "POST", pattern: basePath + "/auth/get_user_token", handler: OpenIMAuthRoutes.userToken),
        RESTRoute(method: "POST", pattern: basePath + "/auth/parse_token", handler: OpenIMAuthRoutes.parseToken),
        RESTRoute(method: "POST", pattern: basePath + "/auth/force_logout", handler: OpenIMAuthRoutes.forceLogout),
        RESTRoute(method: "POST", pattern: basePath + "/user/user_register", handler: OpenIMUserRoutes.register),
        RESTRoute(method: "POST", pattern: basePath + "/user/get_users_info", handler: OpenIMUserRoutes.info),
        RESTRoute(
            method: "POST", pattern: basePath + "/user/get_users_online_status", handler: OpenIMUserRoutes.onlineStatus),
    ]
}
