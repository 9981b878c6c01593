import IMockCore
import IMockClient
import IMockCommon

/// The apps, users and device slots of a soak: one app per login policy (Easemob multi-device,
/// single-device, each with keep-current-device; OpenIM policies 0, 1, 4 and 5), created through
/// the control API's seed, two or more users per app, device slots of varying platforms spread
/// over the users so that policies kick and refuse.
struct SoakPlan: Sendable {
    struct App: Sendable {
        /// Short name, e.g. `em-multi`.
        let name: String
        /// `org#app`.
        let key: String
        /// `org/app` for REST and control paths.
        let path: String
        /// The seed's `loginPolicy` object.
        let policy: String
        let openIM: Bool
    }

    struct User: Sendable {
        let index: Int
        let app: Int
        let name: String
    }

    struct Slot: Sendable {
        let index: Int
        let user: Int
        /// The device member naming the platform, e.g. `"os":"ios"` or `"platformId":3`.
        let platform: String
        let uuid: String
        /// The dialect its connections speak: every third device of an app speaks its vendor's
        /// (msync for Easemob apps, the OpenIM gateway for OpenIM ones), the others imock JSON.
        var transport: ClientTransport = .imockJSON

        /// The platform as the engine knows it.
        var devicePlatform: DevicePlatform? {
            let digits = platform.filter(\.isNumber)
            guard platform.hasPrefix(#""platformId""#), let id = Int(digits), let openIM = OpenIMPlatform(rawValue: id) else {
                return nil
            }
            return .openIM(openIM)
        }
    }

    /// The policies, one app each.
    static let policies: [(name: String, policy: String, openIM: Bool)] = [
        ("em-multi", #"{"vendor":"easemob","deviceLimits":{"default":2,"mobile":1}}"#, false),
        ("em-single", #"{"vendor":"easemob","mode":"singleDevice"}"#, false),
        ("em-multi-keep", #"{"vendor":"easemob","deviceLimits":{"mobile":1},"keepCurrentDevice":true}"#, false),
        ("em-single-keep", #"{"vendor":"easemob","mode":"singleDevice","keepCurrentDevice":true}"#, false),
        ("oi-0", #"{"vendor":"openim","policy":0}"#, true),
        ("oi-1", #"{"vendor":"openim","policy":1}"#, true),
        ("oi-4", #"{"vendor":"openim","policy":4}"#, true),
        ("oi-5", #"{"vendor":"openim","policy":5}"#, true),
    ]
    static let easemobPlatforms = [#""os":"ios""#, #""os":"android""#, #""os":"windows""#, #""os":"web""#]
    /// iOS, Android, Windows, Web.
    static let openIMPlatforms = [#""platformId":1"#, #""platformId":2"#, #""platformId":3"#, #""platformId":5"#]
    static let clientID = "YXA6soakClient"

    let org: String
    let apps: [App]
    let users: [User]
    let slots: [Slot]
    let clientSecret: String
    /// Seconds a user token lives: clock steps of up to five minutes reach warnings and expiries.
    let tokenTTLSeconds = 900

    /// A plan for `devices` slots (at least ``SoakConfiguration/minimumDevices``), its org and
    /// secret drawn from `random` so that runs sharing an external server do not meet.
    init(devices: Int, random: inout SplitMix64) {
        let org = "soak-" + String(random.next() % 1_000_000_000, radix: 36)
        self.org = org
        clientSecret = "YXA6soak" + String(random.next(), radix: 36)
        let apps = Self.policies.map { policy in
            App(name: policy.name, key: "\(org)#\(policy.name)", path: "\(org)/\(policy.name)", policy: policy.policy,
                openIM: policy.openIM)
        }
        self.apps = apps
        let usersPerApp = max(2, devices / (3 * apps.count))
        var users: [User] = []
        for app in apps.indices {
            for number in 0..<usersPerApp { users.append(User(index: users.count, app: app, name: "u\(number)")) }
        }
        self.users = users
        // Round robin over the users: each user's first device is a phone, then the others.
        var perUser = [Int](repeating: 0, count: users.count)
        var slots: [Slot] = []
        for index in 0..<max(devices, users.count) {
            let user = users[index % users.count]
            let platforms = apps[user.app].openIM ? Self.openIMPlatforms : Self.easemobPlatforms
            let vendorDialect: ClientTransport = apps[user.app].openIM ? .openIM : .msync
            slots.append(Slot(
                index: index, user: user.index, platform: platforms[perUser[user.index] % platforms.count],
                uuid: "soak-device-\(index)", transport: perUser[user.index] % 3 == 1 ? vendorDialect : .imockJSON))
            perUser[user.index] += 1
        }
        self.slots = slots
    }

    /// The control API's seed document: every app with open registration, the plan's
    /// credentials, its policy and its users (tokens come from the `inherit` grant).
    var seedDocument: String {
        let entries = apps.enumerated().map { index, app in
            let names = users.filter { $0.app == index }.map { #"{"username":"\#($0.name)"}"# }.joined(separator: ",")
            return #"{"appKey":"\#(app.key)","registrationMode":"open","clientId":"\#(Self.clientID)","clientSecret":"\#(clientSecret)","loginPolicy":\#(app.policy),"users":[\#(names)]}"#
        }
        return #"{"version":1,"apps":[\#(entries.joined(separator: ","))]}"#
    }

    /// The login frame of a slot's connection: its own resource per connection, so the server's
    /// session list tells connections apart.
    /// A connection of the OpenIM gateway names no resource (the server makes one of its
    /// `uuid`).
    func loginFrame(id: String, slot: Slot, token: String, resource: String, uuid: String? = nil, autoLogin: Bool) -> String {
        let user = users[slot.user]
        let named = uuid == nil ? #","resource":"\#(resource)""# : ""
        return #"{"op":"login","id":"\#(id)","appKey":"\#(apps[user.app].key)","user":"\#(user.name)","token":"\#(token)","device":{\#(slot.platform),"name":"soak","uuid":"\#(uuid ?? slot.uuid)"\#(named)},"autoLogin":\#(autoLogin)}"#
    }
}
