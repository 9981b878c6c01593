/// An OpenIM platform id (protocol `constant/platform_id_to_name.go`, reference openim-zim.md A3).
public enum OpenIMPlatform: Int, Sendable, Hashable, CaseIterable {
    /// 1, Mobile class.
    case ios = 1
    /// 2, Mobile class.
    case android = 2
    /// 3, PC class.
    case windows = 3
    /// 4, PC class.
    case osx = 4
    /// 5, Web class.
    case web = 5
    /// 6, MiniWeb class.
    case miniWeb = 6
    /// 7, PC class.
    case linux = 7
    /// 8 (AndroidPad), Pad class.
    case androidPad = 8
    /// 9, Pad class.
    case iPad = 9
    /// 10, Admin: excluded from every multi-login policy.
    case admin = 10
    /// 11, HarmonyOS: its own class.
    case harmonyOS = 11

    /// Creates the platform from its id, throwing for ids outside 1–11.
    public init(platformID: Int) throws(DeviceDescriptionError) {
        guard let platform = OpenIMPlatform(rawValue: platformID) else {
            throw .unknownOpenIMPlatformID(platformID)
        }
        self = platform
    }

    /// The class that policies 4 and 5 compare.
    public var platformClass: OpenIMPlatformClass {
        switch self {
        case .ios, .android: .mobile
        case .windows, .osx, .linux: .pc
        case .web: .web
        case .miniWeb: .miniWeb
        case .androidPad, .iPad: .pad
        case .admin: .admin
        case .harmonyOS: .harmonyOS
        }
    }

    /// The prefix of resources the engine assigns.
    public var resourcePrefix: String {
        switch self {
        case .ios: "ios"
        case .android: "android"
        case .windows: "windows"
        case .osx: "osx"
        case .web: "web"
        case .miniWeb: "miniweb"
        case .linux: "linux"
        case .androidPad: "apad"
        case .iPad: "ipad"
        case .admin: "admin"
        case .harmonyOS: "harmonyos"
        }
    }
}

/// An OpenIM platform class.
public enum OpenIMPlatformClass: Sendable, Hashable, CaseIterable {
    /// iOS, Android.
    case mobile
    /// Windows, OSX, Linux.
    case pc
    /// Web.
    case web
    /// MiniWeb.
    case miniWeb
    /// AndroidPad, iPad.
    case pad
    /// Admin (never kicks, never kicked).
    case admin
    /// HarmonyOS.
    case harmonyOS
}
