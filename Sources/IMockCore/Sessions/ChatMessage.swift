/// A 1:1 text message.
public struct ChatMessage: Sendable, Equatable {
    /// Server-assigned id, unique per engine (decimal digits).
    public var messageId: String
    /// The sender's username.
    public var from: String
    /// The recipient's username.
    public var to: String
    /// The text.
    public var text: String
    /// When the server accepted it, epoch ms.
    public var timestamp: Int64

    /// Creates a message.
    public init(messageId: String, from: String, to: String, text: String, timestamp: Int64) {
        self.messageId = messageId
        self.from = from
        self.to = to
        self.text = text
        self.timestamp = timestamp
    }
}

/// One logged-in device of a user, as device listings show it (and the REST `resources` route).
public struct DeviceEntry: Sendable, Equatable {
    /// The resource id.
    public var resource: String
    /// The device UUID.
    public var deviceUUID: String
    /// The device name.
    public var deviceName: String

    /// Creates an entry.
    public init(resource: String, deviceUUID: String, deviceName: String) {
        self.resource = resource
        self.deviceUUID = deviceUUID
        self.deviceName = deviceName
    }
}

/// The device whose login displaced a kicked one (E12), as the kicked device is told.
public struct KickedBy: Sendable, Equatable {
    /// The new device's name.
    public var deviceName: String
    /// The new device's login extension info.
    public var extensionInfo: String

    /// Creates the value.
    public init(deviceName: String, extensionInfo: String) {
        self.deviceName = deviceName
        self.extensionInfo = extensionInfo
    }
}
