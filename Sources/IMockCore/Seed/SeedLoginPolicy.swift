/// The `loginPolicy` member of a seed app (docs/SEED.md § Login policy): reading it from JSON
/// and writing it in the fixed member order of ``SeedKeys``.
extension SeedDocument {
    /// Decodes a `loginPolicy` object. Absent inner fields take Easemob's or OpenIM's defaults:
    /// mode `multiDevice`, `deviceLimits` 4 everywhere, rule `newKicksOld`,
    /// `keepCurrentDevice` false, OpenIM `policy` 1. Only `vendor` is required.
    static func decodeLoginPolicy(_ json: JSONValue, at path: String) throws(SeedError) -> LoginPolicy {
        try SeedError.mapping { try decodeAnyLoginPolicy(json, at: path) }
    }

    private static func decodeAnyLoginPolicy(_ json: JSONValue, at path: String) throws -> LoginPolicy {
        let anyVendor = try JSONObjectReader.seed(
            json, at: path, allowedKeys: SeedKeys.easemobLoginPolicy + SeedKeys.openIMLoginPolicy)
        switch try anyVendor.requiredString("vendor") {
        case SeedLoginPolicyNames.easemob:
            return .easemob(try decodeEasemobPolicy(json, at: path))
        case SeedLoginPolicyNames.openIM:
            let object = try JSONObjectReader.seed(json, at: path, allowedKeys: SeedKeys.openIMLoginPolicy)
            guard let number = try object.int("policy") else { return .openIM(.allLoginButSameTermKick) }
            do {
                return .openIM(try OpenIMMultiLoginPolicy(policyValue: Int(clamping: number)))
            } catch {
                throw SeedError(path: object.childPath("policy"), message: "must be 0, 1, 4 or 5")
            }
        default:
            throw SeedError(
                path: anyVendor.childPath("vendor"),
                message: #"must be "\#(SeedLoginPolicyNames.easemob)" or "\#(SeedLoginPolicyNames.openIM)""#)
        }
    }

    private static func decodeEasemobPolicy(_ json: JSONValue, at path: String) throws -> EasemobLoginPolicy {
        let object = try JSONObjectReader.seed(json, at: path, allowedKeys: SeedKeys.easemobLoginPolicy)
        var policy = EasemobLoginPolicy()
        let limitsJSON = object.value("deviceLimits")
        let ruleName = try object.string("rule")
        switch try object.string("mode") ?? SeedLoginPolicyNames.multiDevice {
        case SeedLoginPolicyNames.multiDevice:
            if ruleName != nil {
                throw SeedError(
                    path: object.childPath("rule"), message: #"is only allowed with "mode": "singleDevice""#)
            }
            if let limitsJSON {
                policy.mode = .multiDevice(try decodeDeviceLimits(limitsJSON, at: object.childPath("deviceLimits")))
            }
        case SeedLoginPolicyNames.singleDevice:
            if limitsJSON != nil {
                throw SeedError(
                    path: object.childPath("deviceLimits"), message: #"is only allowed with "mode": "multiDevice""#)
            }
            let rule: EasemobSingleDeviceRule
            switch ruleName ?? SeedLoginPolicyNames.newKicksOld {
            case SeedLoginPolicyNames.newKicksOld: rule = .newKicksOld
            case SeedLoginPolicyNames.firstDeviceWins: rule = .firstDeviceWins
            default:
                throw SeedError(
                    path: object.childPath("rule"),
                    message: #"must be "\#(SeedLoginPolicyNames.newKicksOld)" or "\#(SeedLoginPolicyNames.firstDeviceWins)""#)
            }
            policy.mode = .singleDevice(rule)
        default:
            throw SeedError(
                path: object.childPath("mode"),
                message: #"must be "\#(SeedLoginPolicyNames.multiDevice)" or "\#(SeedLoginPolicyNames.singleDevice)""#)
        }
        if let keep = try object.bool("keepCurrentDevice") { policy.keepCurrentDevice = keep }
        return policy
    }

    /// `{"default": n, "mobile": n, …, "custom:7": n}`: every member optional, each an integer ≥ 0.
    private static func decodeDeviceLimits(_ json: JSONValue, at path: String) throws(SeedError) -> EasemobDeviceLimits {
        guard let members = json.objectValue else { throw SeedError(path: path, message: "must be an object") }
        // Names first (as the seed reader does), so a misspelt group is reported before a bad value.
        var groups: [EasemobPlatformGroup?] = []
        for member in members {
            let memberPath = "\(path).\(member.key)"
            groups.append(
                member.key == SeedLoginPolicyNames.defaultLimit
                    ? nil : try EasemobPlatformGroup(seedName: member.key, at: memberPath))
        }
        var defaultLimit = EasemobDeviceLimits.easemobDefault
        var overrides: [EasemobPlatformGroup: Int] = [:]
        for (member, group) in zip(members, groups) {
            let memberPath = "\(path).\(member.key)"
            guard let number = member.value.intValue else { throw SeedError(path: memberPath, message: "must be an integer") }
            guard number >= 0 else { throw SeedError(path: memberPath, message: "must not be negative") }
            guard ValueLimits.count.contains(number) else {
                throw SeedError(path: memberPath, message: "must be 0 to \(ValueLimits.count.upperBound)")
            }
            if let group { overrides[group] = Int(number) } else { defaultLimit = Int(number) }
        }
        do {
            return try EasemobDeviceLimits(defaultLimit: defaultLimit, overrides: overrides)
        } catch {
            // Not reached: every value was checked above; kept so a new domain rule still gets a path.
            throw SeedError(path: path, message: "\(error)")
        }
    }
}

/// The strings of the `loginPolicy` object.
enum SeedLoginPolicyNames {
    static let easemob = "easemob"
    static let openIM = "openim"
    static let multiDevice = "multiDevice"
    static let singleDevice = "singleDevice"
    static let newKicksOld = "newKicksOld"
    static let firstDeviceWins = "firstDeviceWins"
    static let defaultLimit = "default"
    static let customPrefix = "custom:"
}

extension EasemobPlatformGroup {
    /// The group named `name` in a seed's `deviceLimits` (`mobile`, `desktop`, `web`, `linux`,
    /// `custom:1` … `custom:100`, decimal without leading zeros); `path` is the member's path.
    init(seedName name: String, at path: String) throws(SeedError) {
        switch name {
        case "mobile": self = .mobile
        case "desktop": self = .desktop
        case "web": self = .web
        case "linux": self = .linux
        default:
            guard name.hasPrefix(SeedLoginPolicyNames.customPrefix) else {
                throw SeedError(path: path, message: "unknown key")
            }
            let digits = name.utf8.dropFirst(SeedLoginPolicyNames.customPrefix.utf8.count)
            guard let first = digits.first, first != UInt8(ascii: "0"), digits.count <= 3,
                digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let type = Int(String(decoding: digits, as: UTF8.self)), EasemobPlatform.customOSTypes.contains(type)
            else {
                throw SeedError(path: path, message: "custom platform must be custom:1 to custom:100")
            }
            self = .custom(type)
        }
    }

    /// The member name in a seed's `deviceLimits` (also how the control API names the group).
    public var seedName: String {
        switch self {
        case .mobile: "mobile"
        case .desktop: "desktop"
        case .web: "web"
        case .linux: "linux"
        case .custom(let type): SeedLoginPolicyNames.customPrefix + String(type)
        }
    }

    /// The order export writes overrides in: the built-in groups, then custom types ascending.
    var seedOrder: Int {
        switch self {
        case .mobile: -4
        case .desktop: -3
        case .web: -2
        case .linux: -1
        case .custom(let type): type
        }
    }
}

extension LoginPolicy {
    /// The `loginPolicy` object as export writes it: every member, in ``SeedKeys`` order.
    var seedJSONValue: JSONValue {
        switch self {
        case .easemob(let policy):
            var members: [(key: String, value: JSONValue)] = [("vendor", .string(SeedLoginPolicyNames.easemob))]
            switch policy.mode {
            case .multiDevice(let limits):
                members.append(("mode", .string(SeedLoginPolicyNames.multiDevice)))
                members.append(("deviceLimits", limits.seedJSONValue))
            case .singleDevice(let rule):
                members.append(("mode", .string(SeedLoginPolicyNames.singleDevice)))
                let name = rule == .newKicksOld ? SeedLoginPolicyNames.newKicksOld : SeedLoginPolicyNames.firstDeviceWins
                members.append(("rule", .string(name)))
            }
            members.append(("keepCurrentDevice", .bool(policy.keepCurrentDevice)))
            return .object(members)
        case .openIM(let policy):
            return .object([("vendor", .string(SeedLoginPolicyNames.openIM)), ("policy", .int(Int64(policy.rawValue)))])
        }
    }
}

extension EasemobDeviceLimits {
    /// `default` first, then every stored override (also one equal to the default, so that a
    /// reloaded app's settings equal the exported ones) in ``EasemobPlatformGroup/seedOrder``.
    var seedJSONValue: JSONValue {
        let sorted = overrides.sorted { $0.key.seedOrder < $1.key.seedOrder }
        return .object(
            [(SeedLoginPolicyNames.defaultLimit, .int(Int64(defaultLimit)))]
                + sorted.map { (key: $0.key.seedName, value: JSONValue.int(Int64($0.value))) })
    }
}
