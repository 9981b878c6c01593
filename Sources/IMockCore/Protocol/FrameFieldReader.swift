/// Typed access to the members of one JSON object of a protocol frame, for both directions
/// (the server parsing client frames, the reference client parsing server frames). Every error
/// names the dotted field path, e.g. `device.uuid` or `devices[2].resource`.
public struct FrameFieldReader: Sendable {
    public let object: JSONValue
    public let prefix: String

    public init(object: JSONValue, prefix: String = "") {
        self.object = object
        self.prefix = prefix
    }

    /// Reads one text frame: it must be a JSON object with a string `op`.
    public static func frame(_ text: String) throws(FrameError) -> (reader: FrameFieldReader, op: String) {
        let value: JSONValue
        do { value = try JSONValue.parse(text) } catch { throw .invalidJSON(error) }
        guard case .object = value else { throw .notAnObject }
        let reader = FrameFieldReader(object: value)
        return (reader, try reader.string("op"))
    }

    public func path(_ key: String) -> String { prefix + key }

    public func string(_ key: String) throws(FrameError) -> String {
        guard let value = try optionalString(key) else { throw .missingField(path(key)) }
        return value
    }

    public func optionalString(_ key: String) throws(FrameError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let string = value.stringValue else { throw .wrongType(field: path(key), expected: "string") }
        return string
    }

    public func int(_ key: String) throws(FrameError) -> Int64 {
        guard let value = try optionalInt(key) else { throw .missingField(path(key)) }
        return value
    }

    public func optionalInt(_ key: String) throws(FrameError) -> Int64? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let int = value.intValue else { throw .wrongType(field: path(key), expected: "integer") }
        return int
    }

    public func optionalBool(_ key: String) throws(FrameError) -> Bool? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let bool = value.boolValue else { throw .wrongType(field: path(key), expected: "boolean") }
        return bool
    }

    /// An error or kick code: an integer that fits `Int32`, so it never overflows `Int` math.
    public func code(_ key: String) throws(FrameError) -> Int {
        let value = try int(key)
        guard value >= 0, value <= Int64(Int32.max) else {
            throw .invalidValue(field: path(key), reason: "must be 0–\(Int32.max)")
        }
        return Int(value)
    }

    public func syncType(_ key: String) throws(FrameError) -> SyncType {
        let name = try string(key)
        guard let type = SyncType(rawValue: name) else {
            throw .invalidValue(field: path(key), reason: "is not one of conversations, contacts, joinedGroups")
        }
        return type
    }

    public func array(_ key: String) throws(FrameError) -> [JSONValue] {
        guard let array = try optionalArray(key) else { throw .missingField(path(key)) }
        return array
    }

    public func optionalArray(_ key: String) throws(FrameError) -> [JSONValue]? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let array = value.arrayValue else { throw .wrongType(field: path(key), expected: "array") }
        return array
    }

    public func object(_ key: String) throws(FrameError) -> FrameFieldReader {
        guard let reader = try optionalObject(key) else { throw .missingField(path(key)) }
        return reader
    }

    public func optionalObject(_ key: String) throws(FrameError) -> FrameFieldReader? {
        guard let value = object[key], !value.isNull else { return nil }
        guard case .object = value else { throw .wrongType(field: path(key), expected: "object") }
        return FrameFieldReader(object: value, prefix: path(key) + ".")
    }

    /// The `index`-th element of the array `key`, which must be an object.
    public func element(_ key: String, _ index: Int) throws(FrameError) -> FrameFieldReader {
        let elements = try array(key)
        let field = "\(path(key))[\(index)]"
        guard elements.indices.contains(index), case .object = elements[index] else {
            throw .wrongType(field: field, expected: "object")
        }
        return FrameFieldReader(object: elements[index], prefix: field + ".")
    }
}
