import IMockCore

/// Why a client frame was refused. Each case names the field at fault; the engine answers
/// with an `error` frame (code 110) and the connection stays open.
public enum FrameError: Error, Sendable, Equatable {
    /// The text is not one JSON value.
    case invalidJSON(JSONParseError)
    /// The JSON value is not an object.
    case notAnObject
    /// A required field is absent (a dotted path, e.g. `device.uuid`).
    case missingField(String)
    /// A field has the wrong JSON type; `expected` is the noun with its article (`a string`,
    /// `an integer`, `a boolean`, `an object`, `an array`).
    case wrongType(field: String, expected: String)
    /// `op` names no client frame.
    case unknownOp(String)
    /// A field has the right type but an unacceptable value.
    case invalidValue(field: String, reason: String)
    /// `device.extension` is longer than 1024 characters (UTF-16 units); the length found.
    case extensionTooLong(Int)
    /// `device` gives none, or more than one, of `os`, `customOSType`, `platformId`.
    case ambiguousPlatform
    /// An `os` name, custom OS type or OpenIM platform id that does not exist.
    case badPlatform(field: String, reason: String)

    /// The field at fault, as a dotted path, when there is one.
    public var field: String? {
        switch self {
        case .invalidJSON, .notAnObject: nil
        case .missingField(let field), .wrongType(let field, _), .invalidValue(let field, _),
            .badPlatform(let field, _):
            field
        case .unknownOp: "op"
        case .extensionTooLong: "device.extension"
        case .ambiguousPlatform: "device"
        }
    }

    /// A sentence for the `message` of the `error` frame.
    public var message: String {
        switch self {
        case .invalidJSON(let error): "invalid JSON: \(error.reason.rawValue) at byte \(error.offset)"
        case .notAnObject: "a frame must be a JSON object"
        case .missingField(let field): "missing field \(field)"
        case .wrongType(let field, let expected): "field \(field) must be \(expected)"
        case .unknownOp(let op): "unknown op \(FrameError.quoted(op))"
        case .invalidValue(let field, let reason): "field \(field) \(reason)"
        case .extensionTooLong(let length):
            "field device.extension is \(length) characters long; at most \(LoginDevice.maxExtensionInfoLength) allowed"
        case .ambiguousPlatform: "device needs exactly one of os, customOSType, platformId"
        case .badPlatform(let field, let reason): "field \(field) \(reason)"
        }
    }

    /// The code of the `error` frame.
    public var code: ProtocolErrorCode { .invalidParam }

    /// At most 64 bytes of client text, quoted, so an error message stays short.
    static func quoted(_ text: String) -> String {
        let short = text.utf8.count > 64 ? TextLimits.prefix(text, maximumUTF8Bytes: 64) + "…" : text
        return "\"\(short)\""
    }

    /// A field problem found by the shared ``JSONObjectReader``, as the frame error naming it.
    public init(_ error: JSONFieldError) {
        switch error.problem {
        case .notAnObject where error.path.isEmpty: self = .notAnObject
        case .notAnObject: self = .wrongType(field: error.path, expected: "an object")
        case .missing: self = .missingField(error.path)
        case .wrongType(let expected): self = .wrongType(field: error.path, expected: expected)
        case .outOfRange, .unknownKey, .invalid: self = .invalidValue(field: error.path, reason: error.phrase)
        }
    }

    /// Parses `text` as one frame object with a string `op` and hands both to `body`, which may
    /// throw a ``JSONFieldError`` (mapped) or a ``FrameError``.
    public static func reading<T>(_ text: String, _ body: (JSONObjectReader, String) throws -> T) throws(FrameError) -> T {
        let value: JSONValue
        do { value = try JSONValue.parse(text) } catch { throw .invalidJSON(error) }
        do {
            let reader = try JSONObjectReader(value)
            return try body(reader, try reader.requiredString("op"))
        } catch let error as JSONFieldError {
            throw FrameError(error)
        } catch let error as FrameError {
            throw error
        } catch {
            throw .invalidValue(field: "", reason: "\(error)")
        }
    }
}
