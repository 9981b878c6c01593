import IMockCore

/// A REST request body read through the shared ``JSONObjectReader``; a member problem is
/// 400 `illegal_argument` naming the member (`ttl must be 0 to 3153600000`).
struct RESTBodyFields {
    let reader: JSONObjectReader

    /// The body must be a JSON object.
    init(_ body: JSONValue) throws(RESTError) {
        do { reader = try JSONObjectReader(body) } catch { throw .illegalArgument("request body must be a JSON object") }
    }

    /// A string member; absent or null gives nil.
    func string(_ key: String) throws(RESTError) -> String? { try rest { () throws(JSONFieldError) in try reader.string(key) } }

    /// An integer member within `range`; absent or null gives nil.
    func integer(_ key: String, in range: ClosedRange<Int64> = Int64.min...Int64.max) throws(RESTError) -> Int64? {
        try rest { () throws(JSONFieldError) in try reader.int(key, in: range) }
    }

    /// A boolean member; absent or null gives nil.
    func bool(_ key: String) throws(RESTError) -> Bool? { try rest { () throws(JSONFieldError) in try reader.bool(key) } }

    /// An array of strings; absent or null gives nil.
    func strings(_ key: String) throws(RESTError) -> [String]? { try rest { () throws(JSONFieldError) in try reader.strings(key) } }

    private func rest<T>(_ read: () throws(JSONFieldError) -> T) throws(RESTError) -> T {
        do { return try read() } catch { throw .illegalArgument("\(error.path) \(error.phrase)") }
    }
}
