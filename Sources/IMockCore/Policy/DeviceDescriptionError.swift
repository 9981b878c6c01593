/// Why a device description, platform or policy value was refused.
public enum DeviceDescriptionError: Error, Sendable, Hashable {
    /// An Easemob custom OS type outside 1–100.
    case customOSTypeOutOfRange(Int)
    /// A Provision with `osType` CUSTOM (5) but no `osCustomValue`.
    case missingCustomOSType
    /// A Provision `osType` that is none of 0–5 or 16.
    case unknownProvisionOSType(Int)
    /// An OpenIM platform id outside 1–11.
    case unknownOpenIMPlatformID(Int)
    /// The device UUID is empty.
    case emptyDeviceUUID
    /// The device UUID contains `/`, which would break the `user@domain/resource` form.
    case deviceUUIDContainsSlash
    /// A resource was given but is empty.
    case emptyResource
    /// The resource contains `/`.
    case resourceContainsSlash
    /// `loginExtensionInfo` is longer than 1024 characters (counted in UTF-16 units like the
    /// Web SDK's JavaScript `length`); the associated value is the length found.
    case extensionInfoTooLong(Int)
    /// The device `name`, `uuid` or `resource` (the associated value) is longer than
    /// ``MessageLimits/maximumDeviceFieldLength`` UTF-8 bytes.
    case fieldTooLong(String)
    /// A negative login time.
    case negativeLoginTime(Int64)
}
