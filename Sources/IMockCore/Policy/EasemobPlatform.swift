/// An Easemob device platform: a built-in OS or a custom OS type 1–100 (reference easemob.md §3.1).
public enum EasemobPlatform: Sendable, Hashable {
    /// iOS (mobile group).
    case ios
    /// Android (mobile group).
    case android
    /// Windows (desktop group).
    case windows
    /// macOS (desktop group).
    case macos
    /// A browser or mini-program running the Web SDK.
    case web
    /// Linux.
    case linux
    /// A custom OS type (`EMOptions.customOSType`), 1–100; each is its own group.
    case custom(Int)

    /// The allowed custom OS types.
    public static let customOSTypes: ClosedRange<Int> = 1...100

    /// Creates the platform from a Provision's `osType` and `osCustomValue` (msync schema:
    /// IOS=0, ANDROID=1, LINUX=2, OSX=3, WIN=4, CUSTOM=5, OTHER=16; the Web SDK sends OTHER).
    public init(provisionOSType osType: Int, customValue: Int?) throws(DeviceDescriptionError) {
        switch osType {
        case 0: self = .ios
        case 1: self = .android
        case 2: self = .linux
        case 3: self = .macos
        case 4: self = .windows
        case 16: self = .web
        case 5:
            guard let customValue else { throw .missingCustomOSType }
            self = .custom(customValue)
            try validate()
        default: throw .unknownProvisionOSType(osType)
        }
    }

    /// The group whose device limit applies to this platform.
    public var group: EasemobPlatformGroup {
        switch self {
        case .ios, .android: .mobile
        case .windows, .macos: .desktop
        case .web: .web
        case .linux: .linux
        case .custom(let type): .custom(type)
        }
    }

    /// The prefix of resources the engine assigns (`{device type}_…`, easemob.md §2;
    /// the Web SDK's `custom<N>_` form for custom types).
    public var resourcePrefix: String {
        switch self {
        case .ios: "ios"
        case .android: "android"
        case .windows: "windows"
        case .macos: "macos"
        case .web: "web"
        case .linux: "linux"
        case .custom(let type): "custom\(type)"
        }
    }

    /// Throws when a custom OS type is outside 1–100.
    public func validate() throws(DeviceDescriptionError) {
        if case .custom(let type) = self, !Self.customOSTypes.contains(type) {
            throw .customOSTypeOutOfRange(type)
        }
    }
}

/// An Easemob "end" (端): the unit a device limit counts in. Groups never kick each other.
public enum EasemobPlatformGroup: Sendable, Hashable {
    /// iOS and Android.
    case mobile
    /// Windows and macOS.
    case desktop
    /// Web SDK.
    case web
    /// Linux.
    case linux
    /// One custom OS type.
    case custom(Int)
}
