import Testing
@testable import IMockCore

/// Device descriptions, resources, limits and codes: exact values and exact errors.
@Suite("Device description and policy values")
struct DeviceDescriptionTests {
    @Test(arguments: [
        (DevicePlatform.easemob(.ios), "ios_U-1"), (.easemob(.android), "android_U-1"),
        (.easemob(.windows), "windows_U-1"), (.easemob(.macos), "macos_U-1"), (.easemob(.web), "web_U-1"),
        (.easemob(.linux), "linux_U-1"), (.easemob(.custom(42)), "custom42_U-1"),
        (.openIM(.osx), "osx_U-1"), (.openIM(.miniWeb), "miniweb_U-1"), (.openIM(.androidPad), "apad_U-1"),
        (.openIM(.harmonyOS), "harmonyos_U-1"),
    ])
    func assignedResource(_ platform: DevicePlatform, _ resource: String) throws {
        let device = try LoginDevice(platform: platform, uuid: "U-1", loginTimeMs: 0, tokenID: 1)
        #expect(device.resource == resource)
    }

    @Test func givenResourceIsKept() throws {
        let device = try LoginDevice(platform: .easemob(.web), uuid: "U", resource: "webim_1700", loginTimeMs: 0, tokenID: 1)
        #expect(device.resource == "webim_1700")
    }

    @Test(arguments: [
        (EasemobPlatform.ios, EasemobPlatformGroup.mobile), (.android, .mobile), (.windows, .desktop),
        (.macos, .desktop), (.web, .web), (.linux, .linux), (.custom(1), .custom(1)), (.custom(100), .custom(100)),
    ])
    func easemobGroups(_ platform: EasemobPlatform, _ group: EasemobPlatformGroup) {
        #expect(platform.group == group)
    }

    @Test(arguments: [
        (0, Int?.none, EasemobPlatform.ios), (1, nil, .android), (2, nil, .linux), (3, nil, .macos),
        (4, nil, .windows), (16, nil, .web), (5, 1, .custom(1)), (5, 100, .custom(100)),
    ])
    func provisionOSTypes(_ osType: Int, _ custom: Int?, _ platform: EasemobPlatform) throws {
        #expect(try EasemobPlatform(provisionOSType: osType, customValue: custom) == platform)
    }

    @Test(arguments: [
        (6, Int?.none, DeviceDescriptionError.unknownProvisionOSType(6)), (-1, nil, .unknownProvisionOSType(-1)),
        (5, nil, .missingCustomOSType), (5, 0, .customOSTypeOutOfRange(0)), (5, 101, .customOSTypeOutOfRange(101)),
    ])
    func badProvisionOSTypes(_ osType: Int, _ custom: Int?, _ error: DeviceDescriptionError) {
        #expect(throws: error) { try EasemobPlatform(provisionOSType: osType, customValue: custom) }
    }

    struct BadDevice: Sendable, CustomTestStringConvertible {
        let platform: DevicePlatform
        let uuid: String
        let resource: String?
        let extensionInfo: String
        let loginTimeMs: Int64
        let error: DeviceDescriptionError
        var testDescription: String { "\(error)" }
    }

    static let badDevices: [BadDevice] = [
        BadDevice(platform: .easemob(.custom(0)), uuid: "u", resource: nil, extensionInfo: "", loginTimeMs: 0, error: .customOSTypeOutOfRange(0)),
        BadDevice(platform: .easemob(.custom(101)), uuid: "u", resource: nil, extensionInfo: "", loginTimeMs: 0, error: .customOSTypeOutOfRange(101)),
        BadDevice(platform: .easemob(.ios), uuid: "", resource: nil, extensionInfo: "", loginTimeMs: 0, error: .emptyDeviceUUID),
        BadDevice(platform: .easemob(.ios), uuid: "a/b", resource: nil, extensionInfo: "", loginTimeMs: 0, error: .deviceUUIDContainsSlash),
        BadDevice(platform: .easemob(.ios), uuid: "u", resource: "", extensionInfo: "", loginTimeMs: 0, error: .emptyResource),
        BadDevice(platform: .openIM(.web), uuid: "u", resource: "web/1", extensionInfo: "", loginTimeMs: 0, error: .resourceContainsSlash),
        BadDevice(platform: .easemob(.ios), uuid: "u", resource: nil, extensionInfo: String(repeating: "x", count: 1025), loginTimeMs: 0, error: .extensionInfoTooLong(1025)),
        // "😀" is two UTF-16 units: 513 of them are 1026 units.
        BadDevice(platform: .easemob(.ios), uuid: "u", resource: nil, extensionInfo: String(repeating: "😀", count: 513), loginTimeMs: 0, error: .extensionInfoTooLong(1026)),
        BadDevice(platform: .easemob(.ios), uuid: "u", resource: nil, extensionInfo: "", loginTimeMs: -1, error: .negativeLoginTime(-1)),
    ]

    @Test(arguments: badDevices)
    func badDevicesAreRefused(_ bad: BadDevice) {
        #expect(throws: bad.error) {
            try LoginDevice(platform: bad.platform, uuid: bad.uuid, resource: bad.resource,
                            extensionInfo: bad.extensionInfo, loginTimeMs: bad.loginTimeMs, tokenID: 1)
        }
    }

    @Test func extensionInfoOf1024IsAccepted() throws {
        let info = String(repeating: "x", count: 1024)
        let device = try LoginDevice(platform: .easemob(.ios), uuid: "u", extensionInfo: info, loginTimeMs: 0, tokenID: 1)
        #expect(device.extensionInfo.utf16.count == 1024)
    }

    @Test(arguments: [
        (-1, [EasemobPlatformGroup: Int](), LoginPolicyError.negativeDefaultDeviceLimit(-1)),
        (4, [.web: -2], .negativeDeviceLimit(.web, -2)),
        (4, [.custom(0): 2], .customGroupOutOfRange(0)),
        (4, [.custom(101): 2], .customGroupOutOfRange(101)),
        (4, [.mobile: -1, .custom(101): 2], .negativeDeviceLimit(.mobile, -1)),
    ])
    func badLimits(_ defaultLimit: Int, _ overrides: [EasemobPlatformGroup: Int], _ error: LoginPolicyError) {
        #expect(throws: error) { try EasemobDeviceLimits(defaultLimit: defaultLimit, overrides: overrides) }
    }

    @Test func limitsLookup() throws {
        let limits = try EasemobDeviceLimits(defaultLimit: 3, overrides: [.custom(7): 1, .web: 0])
        #expect(limits.limit(for: .custom(7)) == 1)
        #expect(limits.limit(for: .custom(8)) == 3)
        #expect(limits.limit(for: .web) == 0)
        #expect(limits.limit(for: .mobile) == 3)
        #expect(EasemobDeviceLimits.standard.limit(for: .linux) == 4)
    }

    @Test(arguments: [
        (LoginPolicy.easemobDefault, DevicePlatform.openIM(.ios)),
        (.openIM(.allLoginButSameTermKick), .easemob(.ios)),
    ])
    func platformOfTheOtherFamilyIsRefused(_ policy: LoginPolicy, _ platform: DevicePlatform) throws {
        let device = try LoginDevice(platform: platform, uuid: "u", loginTimeMs: 0, tokenID: 1)
        #expect(throws: LoginPolicyError.platformFamilyMismatch(platform)) {
            try LoginPolicyEngine(policy: policy).decide(LoginAttempt(device: device), liveSessions: [])
        }
    }

    /// Sessions of the other family (after a policy change) are neither kicked nor counted.
    @Test func sessionsOfTheOtherFamilyAreIgnored() throws {
        let foreign = Fixture.session(1, try Fixture.openIM(.ios, uuid: "f", at: 1, token: 1))
        let mine = Fixture.session(2, try Fixture.easemob(.ios, uuid: "m", at: 2))
        let device = try Fixture.easemob(.android, uuid: "n", at: 3)
        let engine = LoginPolicyEngine(policy: .easemob(EasemobLoginPolicy(mode: .singleDevice(.newKicksOld))))
        let decision = try engine.decide(LoginAttempt(device: device), liveSessions: [foreign, mine])
        #expect(decision == Expected.kick([2]).decision(for: device))
    }

    @Test(arguments: [
        (KickCode.activeUserLimitReached, 8), (.invalidToken, 104), (.tokenExpired, 108), (.authenticationFailed, 202),
        (.loggedInOnAnotherDevice, 206), (.userRemoved, 207), (.boundToAnotherDevice, 213), (.tooManyDevices, 214),
        (.kickedByPasswordChange, 216), (.kickedByOtherDevice, 217), (.deviceChanged, 220), (.serviceForbidden, 305),
    ])
    func kickCodeValues(_ code: KickCode, _ value: Int) {
        #expect(code.rawValue == value)
        #expect(KickSignal.easemob(code).numericCode == value)
    }

    @Test func kickCodesAreExactlyTheTwelve() {
        #expect(KickCode.allCases.map(\.rawValue) == [8, 104, 108, 202, 206, 207, 213, 214, 216, 217, 220, 305])
        #expect(OpenIMKickCode.allCases.map(\.rawValue) == [2002, 1506])
    }
}
