import IMockCommon

extension SeedError {
    /// A member problem found by the shared ``JSONObjectReader``, under the member's path.
    init(_ error: JSONFieldError) {
        self.init(path: error.path, message: error.phrase)
    }

    /// Runs `body`, reporting a ``JSONFieldError`` it throws as a seed error.
    static func mapping<T>(_ body: () throws -> T) throws(SeedError) -> T {
        do {
            return try body()
        } catch let error as SeedError {
            throw error
        } catch let error as JSONFieldError {
            throw SeedError(error)
        } catch {
            throw SeedError(path: "", message: "\(error)")
        }
    }
}

extension JSONObjectReader {
    /// A seed object: `null` is a value (allowed only where the reader says `nullable`), and a
    /// member outside `allowedKeys` is an error.
    static func seed(_ value: JSONValue, at path: String, allowedKeys: [String]) throws(JSONFieldError)
        -> JSONObjectReader
    {
        let reader = try JSONObjectReader(value, path: path, nullIsAbsent: false)
        try reader.allowOnly(allowedKeys)
        return reader
    }

    /// A token id: 0 … ``ValueLimits/maximumCounter``.
    func tokenID(_ key: String) throws(JSONFieldError) -> UInt64? {
        try int(key, in: ValueLimits.counter).map { UInt64($0) }
    }

    /// Decoded standard base64 (with padding).
    func base64(_ key: String) throws(JSONFieldError) -> [UInt8]? {
        guard let text = try string(key) else { return nil }
        guard let bytes = Base64.decode(text) else { throw invalid(key, "is not valid base64 (RFC 4648 with padding)") }
        return bytes
    }
}
