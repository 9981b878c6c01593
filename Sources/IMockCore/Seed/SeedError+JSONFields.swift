import IMockCommon
/// Reads the members of one JSON object of a seed document with typed getters whose errors
/// carry the member's JSON path. Refuses duplicate and unknown keys up front.
struct SeedObjectReader {
    let path: String
    private let members: [(key: String, value: JSONValue)]

    /// `value` must be an object whose keys are all in `allowedKeys`, each at most once.
    init(_ value: JSONValue, at path: String, allowedKeys: [String]) throws(SeedError) {
        guard let members = value.objectValue else {
            throw SeedError(path: path, message: "must be an object")
        }
        self.path = path
        self.members = members
        var seen: Set<String> = []
        for member in members {
            guard allowedKeys.contains(member.key) else {
                throw SeedError(path: childPath(member.key), message: "unknown key")
            }
            guard seen.insert(member.key).inserted else {
                throw SeedError(path: childPath(member.key), message: "duplicate key")
            }
        }
    }

    /// `path.key`, or `key` at the top level.
    func childPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The value of `key`, or nil when absent.
    func value(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }

    func string(_ key: String) throws(SeedError) -> String? {
        guard let value = value(key) else { return nil }
        guard let text = value.stringValue else { throw SeedError(path: childPath(key), message: "must be a string") }
        return text
    }

    func requiredString(_ key: String) throws(SeedError) -> String {
        guard let text = try string(key) else { throw SeedError(path: childPath(key), message: "is required") }
        return text
    }

    /// A string, or nil when absent or `null`.
    func nullableString(_ key: String) throws(SeedError) -> String? {
        guard let value = value(key), !value.isNull else { return nil }
        guard let text = value.stringValue else {
            throw SeedError(path: childPath(key), message: "must be a string or null")
        }
        return text
    }

    func int(_ key: String) throws(SeedError) -> Int64? {
        guard let value = value(key) else { return nil }
        guard let number = value.intValue else { throw SeedError(path: childPath(key), message: "must be an integer") }
        return number
    }

    func requiredInt(_ key: String) throws(SeedError) -> Int64 {
        guard let number = try int(key) else { throw SeedError(path: childPath(key), message: "is required") }
        return number
    }

    /// An integer, or nil when absent or `null`.
    func nullableInt(_ key: String) throws(SeedError) -> Int64? {
        guard let value = value(key), !value.isNull else { return nil }
        guard let number = value.intValue else {
            throw SeedError(path: childPath(key), message: "must be an integer or null")
        }
        return number
    }

    /// A non-negative integer as a token id.
    func tokenID(_ key: String) throws(SeedError) -> UInt64? {
        guard let number = try int(key) else { return nil }
        guard number >= 0 else { throw SeedError(path: childPath(key), message: "must not be negative") }
        return UInt64(number)
    }

    func bool(_ key: String) throws(SeedError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard let flag = value.boolValue else { throw SeedError(path: childPath(key), message: "must be a boolean") }
        return flag
    }

    func array(_ key: String) throws(SeedError) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard let elements = value.arrayValue else {
            throw SeedError(path: childPath(key), message: "must be an array")
        }
        return elements
    }

    /// Decoded standard base64 (with padding).
    func base64(_ key: String) throws(SeedError) -> [UInt8]? {
        guard let text = try string(key) else { return nil }
        guard let bytes = Base64.decode(text) else {
            throw SeedError(path: childPath(key), message: "is not valid base64 (RFC 4648 with padding)")
        }
        return bytes
    }
}
