import IMockCore

/// What an OpenIM SDK asks for in the gateway's upgrade request (`GET <wsAddr>?sendID=…&token=…`;
/// msggateway `constant.go`, `context.go`; reference openim-zim.md §A4), checked in the
/// server's order.
public struct OpenIMHandshake: Sendable, Equatable {
    /// How the frames of a connection are encoded (`sdkType`).
    public enum Encoding: String, Sendable {
        /// `go` (the default): Go's gob.
        case gob = "go"
        /// `js`: JSON.
        case json = "js"
    }

    /// The app, from the path `/openim/{org}/{app}`: `org#app`.
    public var appKey: String
    /// `sendID`: the user.
    public var sendID: String
    /// `token`.
    public var token: String
    /// `platformID`.
    public var platform: OpenIMPlatform
    /// `operationID`.
    public var operationID: String
    /// `isBackground`.
    public var isBackground: Bool
    /// `compression=gzip` (query or header): every frame is gzip-compressed, both ways.
    public var gzip: Bool
    /// `sdkType`.
    public var encoding: Encoding
    /// `isMsgResp`: the handshake's result comes as a text frame after the upgrade.
    public var isMsgResp: Bool
    /// `sdkVersion` (informational).
    public var sdkVersion: String
    /// `deviceID`, an imock extension: the device for the policy and device listings; without
    /// it the token stands for the device (so a reconnect with the same token is the same one).
    public var deviceID: String?

    /// The path the gateway is served at; `{org}` and `{app}` name the app.
    public static let pathPattern = "/openim/{org}/{app}"

    /// Reads an upgrade request. A missing or bad argument is ``OpenIMErrorCode/connArgs``
    /// (1602), except `isBackground`, whose parse error comes back raw as 500, as the real
    /// gateway's does.
    public init(_ request: UpgradeRequest) throws(OpenIMError) {
        // Split on the UTF-8 bytes (splitting the String compares Characters: 8,000 instructions a login).
        let segments = request.path.utf8.split(separator: UInt8(ascii: "/"))
        guard segments.count == 3, segments[0].elementsEqual("openim".utf8) else {
            throw OpenIMError(.connArgs, "the gateway is served at /openim/{org}/{app}")
        }
        appKey = String(Substring(segments[1])) + "#" + String(Substring(segments[2]))
        func required(_ name: String) throws(OpenIMError) -> String {
            guard let value = request.queryValue(name), !value.isEmpty else { throw OpenIMError(.connArgs, "\(name) is empty") }
            return value
        }
        token = try required("token")
        sendID = try required("sendID")
        let platformText = try required("platformID")
        guard let platformID = Int(platformText) else { throw OpenIMError(.connArgs, "platformID is not int") }
        guard let platform = OpenIMPlatform(rawValue: platformID) else {
            throw OpenIMError(.connArgs, "platformID is invalid")
        }
        self.platform = platform
        operationID = try required("operationID")
        switch request.queryValue("sdkType") ?? "" {
        case "", Encoding.gob.rawValue: encoding = .gob
        case Encoding.json.rawValue: encoding = .json
        default: throw OpenIMError(.connArgs, "sdkType is not go or js")
        }
        if let text = request.queryValue("isMsgResp") {
            guard let value = Self.parseBool(text) else { throw OpenIMError(.connArgs, "isMsgResp is not bool") }
            isMsgResp = value
        } else {
            isMsgResp = false
        }
        let background = request.queryValue("isBackground") ?? ""
        guard let isBackground = Self.parseBool(background) else {
            throw OpenIMError(.serverInternal, "strconv.ParseBool: parsing \"\(background)\": invalid syntax")
        }
        self.isBackground = isBackground
        let compression =
            request.queryValue("compression") ?? request.headers.first { $0.name.lowercased() == "compression" }?.value
        gzip = compression == "gzip"
        sdkVersion = request.queryValue("sdkVersion") ?? ""
        deviceID = request.queryValue("deviceID").flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Go's `strconv.ParseBool`.
    static func parseBool(_ text: String) -> Bool? {
        switch text {
        case "1", "t", "T", "TRUE", "true", "True": true
        case "0", "f", "F", "FALSE", "false", "False": false
        default: nil
        }
    }

    /// The engine's login for this handshake. The device is the platform with `deviceID`, or
    /// else a digest of the token and the connection's `operationID` (a new one per connection
    /// in every SDK); its name is OpenIM's platform name. Two connections sharing a token are
    /// then two devices, and the policy never kicks one for the other (the gateway's same-token
    /// rule): both stay, as on OpenIM's gateway, where the token as the device made each
    /// replace the other and the client reconnect at once, forever.
    public var loginRequest: LoginRequest {
        let uuid = deviceID ?? Self.digest(token + "\u{0}" + operationID)
        let device = DeviceDescription(platform: .openIM(platform), name: platform.openIMName, uuid: uuid)
        return LoginRequest(appKey: appKey, user: sendID, token: token, device: device)
    }

    /// The first 16 hex digits of HMAC-SHA256 of `token`: a stable device id for it.
    static func digest(_ token: String) -> String {
        let mac = Crypto.hmacSHA256(key: Array("imock openim device".utf8), message: Array(token.utf8))
        return mac.prefix(8).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

extension OpenIMPlatform {
    /// OpenIM's name for the platform (protocol `constant/platform_id_to_name.go`).
    public var openIMName: String {
        switch self {
        case .ios: "IOS"
        case .android: "Android"
        case .windows: "Windows"
        case .osx: "OSX"
        case .web: "Web"
        case .miniWeb: "MiniWeb"
        case .linux: "Linux"
        case .androidPad: "APad"
        case .iPad: "IPad"
        case .admin: "Admin"
        case .harmonyOS: "HarmonyOS"
        }
    }
}
