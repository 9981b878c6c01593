import IMockCore

/// Typed access to fields of a JSON request body; a wrong type is 400 `illegal_argument`.
struct RESTBodyFields {
    let object: [(key: String, value: JSONValue)]

    /// The body must be a JSON object.
    init(_ body: JSONValue) throws(RESTError) {
        guard let object = body.objectValue else { throw .illegalArgument("request body must be a JSON object") }
        self.object = object
    }

    init(members: [(key: String, value: JSONValue)]) { object = members }

    private func value(_ key: String) -> JSONValue? {
        guard let value = object.first(where: { $0.key == key })?.value, !value.isNull else { return nil }
        return value
    }

    /// A string field; absent or null gives nil.
    func string(_ key: String) throws(RESTError) -> String? {
        guard let value = value(key) else { return nil }
        guard let string = value.stringValue else { throw .illegalArgument("\(key) must be a string") }
        return string
    }

    /// An integer field; absent or null gives nil. A number with a fraction is refused.
    func integer(_ key: String) throws(RESTError) -> Int64? {
        guard let value = value(key) else { return nil }
        guard let int = value.intValue else { throw .illegalArgument("\(key) must be an integer") }
        return int
    }

    /// A boolean field; absent or null gives nil.
    func bool(_ key: String) throws(RESTError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard let bool = value.boolValue else { throw .illegalArgument("\(key) must be a boolean") }
        return bool
    }

    /// An array of strings; absent or null gives nil.
    func strings(_ key: String) throws(RESTError) -> [String]? {
        guard let value = value(key) else { return nil }
        guard let array = value.arrayValue else { throw .illegalArgument("\(key) must be an array of strings") }
        var strings: [String] = []
        for element in array {
            guard let string = element.stringValue else { throw .illegalArgument("\(key) must be an array of strings") }
            strings.append(string)
        }
        return strings
    }
}
