/// The rule ids of the conformance catalogue (`CONFORMANCE.md`): every fixture names some, an
/// unknown id is refused, and `imock run --coverage` fails while one has no fixture.
public enum RuleCatalogue {
    /// One rule: id, the behaviour in a few words, the seed document it comes from.
    public struct Rule: Sendable, Equatable {
        /// `S1` … `X3`.
        public var id: String
        /// The behaviour in a few words.
        public var title: String
        /// The seed section it comes from.
        public var source: String
    }

    /// Every rule, in catalogue order.
    public static let rules: [Rule] = [
        Rule(id: "S1", title: "Authorized and open registration; tokenless registration refused with 401 in authorized mode", source: "000 § 用户注册"),
        Rule(id: "S2", title: "Login with user id + token; tokens issued by the server (client_credentials, password, inherit)", source: "000 § 登录"),
        Rule(id: "S3", title: "A token of user A never logs in user B, nor a user of another app", source: "000 § 登录"),
        Rule(id: "S4", title: "Multi-device policy is server configuration (limits per group, single device, keep current device)", source: "000 § 多设备登录"),
        Rule(id: "S5", title: "Kick codes reach the right device with the right callback", source: "004 § 连接断开和异常登出处理"),
        Rule(id: "S6", title: "getLoggedInDevicesFromServer lists every device; callable without being logged in", source: "000 § 多设备登录"),
        Rule(id: "S7", title: "Password change 216, force logout 217, user deleted 207, ban or app disabled 305", source: "004 § 连接断开和异常登出处理"),
        Rule(id: "E1", title: "isLoggedIn and isConnected are independent; the SDK never logs in by itself", source: "000 § 提示"),
        Rule(id: "E2", title: "onDatabaseOpened fires during login, possibly before online login finishes", source: "000 § 登录完成前使用本地数据库"),
        Rule(id: "E3", title: "Login success is the completion without error; connected only by connectionStateDidChange", source: "000 § 登录完成前使用本地数据库"),
        Rule(id: "E4", title: "syncDataFinished follows the database opening, once per configured type", source: "000 § 登录完成前使用本地数据库"),
        Rule(id: "E5", title: "tokenWillExpire → renewToken completes without error; a bad token fails renewToken", source: "000 § Token 续期"),
        Rule(id: "E6", title: "tokenDidExpire → the app must log in again with a new token", source: "000 § Token 续期"),
        Rule(id: "E7", title: "currentUsername is the logged-in user id", source: "000 § 获取当前登录的用户"),
        Rule(id: "E8", title: "logout(unbind: YES) fails on unbind failure and stays logged in; logout(NO) then works", source: "000 § 退出登录"),
        Rule(id: "E9", title: "Account switch: logout, wait, log in; another account while logged in fails (200 / 218)", source: "000 § 账号切换"),
        Rule(id: "E10", title: "A login beyond the device limit kicks an existing device (206)", source: "000 § 多设备登录"),
        Rule(id: "E11", title: "customOSType, customDeviceName, loginExtensionInfo (≤ 1024) describe the device", source: "000 § 配置登录设备信息"),
        Rule(id: "E12", title: "The kicked device's callback carries the new device's deviceName and extensionInfo", source: "000 § 设备互踢"),
        Rule(id: "E13", title: "userAccountDidForcedToLogout carries the reason code", source: "000 § 设备互踢"),
        Rule(id: "E14", title: "The multi-device codes 206, 213, 214, 216, 217, 220 mean what the table says", source: "000 § 多设备登录"),
        Rule(id: "E15", title: "Login to a disabled app fails with 305; a banned logged-in user gets userDidForbidByServer", source: "000 § 登录被封禁账号的提示"),
        Rule(id: "C1", title: "Lifecycle order: init → delegate → login → database → connected → offline sync → data sync", source: "004 § 连接生命周期"),
        Rule(id: "C2", title: "Weak network: logged in but not connected; reconnects by itself: disconnected then connected", source: "004 § 自动重连"),
        Rule(id: "C3", title: "Only two connection states: connected, disconnected", source: "004 § 自动重连"),
        Rule(id: "C4", title: "Delegates: removeDelegate stops callbacks; one added after login misses earlier ones", source: "004 § 监听连接变化"),
        Rule(id: "C5", title: "onDatabaseOpened fires also on failure, timeout or disconnect", source: "004 § 回调说明"),
        Rule(id: "C6", title: "Kick codes map to the account callbacks and clear the local login", source: "004 § 连接断开和异常登出处理"),
        Rule(id: "C7", title: "104 and 213 come back as the login completion error", source: "004 § 连接断开和异常登出处理"),
        Rule(id: "C8", title: "tokenWillExpire at about 20 % of life left; tokenDidExpire logs out, no auto-reconnect", source: "004 § Token 生命周期"),
        Rule(id: "C9", title: "Logout, token errors, kicks and limits never recover by auto-reconnect", source: "004 § 自动重连"),
        Rule(id: "C10", title: "Offline message sync start/finish, not when nothing waits; delivered once", source: "004 § 离线消息和业务数据同步"),
        Rule(id: "C11", title: "Data sync start/finished per type, also on failure; separate from offline sync", source: "004 § 离线消息和业务数据同步"),
        Rule(id: "C12", title: "No new login after a weak-network drop: the SDK repairs it", source: "004 § 最佳实践"),
        Rule(id: "O1", title: "Connection, token and kick callbacks are given at init; init ≠ logged in ≠ connected", source: "001 § 初始化并处理连接生命周期"),
        Rule(id: "O2", title: "Every connection attempt: onConnecting, then onConnectSuccess or onConnectFailure", source: "001 § 初始化并处理连接生命周期"),
        Rule(id: "O3", title: "Login success ≠ connected: data calls wait for onConnectSuccess", source: "001 § 登录当前用户"),
        Rule(id: "O4", title: "No parallel logins; a login when already Logged fails (10102)", source: "001 § 登录当前用户"),
        Rule(id: "O5", title: "getLoginStatus and getLoginUserID are synchronous and fire no callback", source: "001 § 查询当前登录状态"),
        Rule(id: "O6", title: "Expired token → onUserTokenExpired; invalid → onUserTokenInvalid; both log out", source: "001 § 处理 Token 与强制下线"),
        Rule(id: "O7", title: "Kick → onKickedOffline; session already ended (Logout); no reconnect", source: "001 § 处理 Token 与强制下线"),
        Rule(id: "O8", title: "Logout completes before the next account logs in; no callback of the old account reaches the new", source: "001 § 主动退出"),
        Rule(id: "O9", title: "The userID must match the token's user, else the login fails", source: "001 § 登录当前用户"),
        Rule(id: "Z1", title: "Login state follows connectionStateChanged: Connected online, Reconnecting offline", source: "002 § 判断用户登录状态"),
        Rule(id: "Z2", title: "Network loss: Reconnecting + LoginInterrupted; reconnects; gives up with Disconnected", source: "002 § 网络异常"),
        Rule(id: "Z3", title: "Kicked by a login elsewhere: Disconnected + KickedOut, no reconnect, calls fail 6000121", source: "002 § 账号被踢出"),
        Rule(id: "Z4", title: "onTokenWillExpire → renewToken; without renewal Disconnected + TokenExpired", source: "002 § Token 过期"),
        Rule(id: "Z5", title: "Offline login of the last online user succeeds at once; Connecting until the network allows", source: "002 § 应用启动时自动登录"),
        Rule(id: "Z6", title: "Login from an offline push: wait for Connected before acting", source: "002 § 收到离线推送时登录"),
        Rule(id: "X1", title: "Full tokens never appear in logs, only a short prefix", source: "001 § 获取当前用户的登录信息"),
        Rule(id: "X2", title: "Per-account isolation: nothing of one account or instance leaks into another", source: "001"),
        Rule(id: "X3", title: "Bad input to every interface gets a clear error and changes nothing else", source: "CONFORMANCE.md § X"),
    ]

    /// The rule with `id`, nil when the catalogue has none.
    public static func rule(_ id: String) -> Rule? { rules.first { $0.id == id } }
}
