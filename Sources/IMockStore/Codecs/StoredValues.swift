import IMockCore

/// Conversions between domain values and column values, with the checks that keep a stored
/// row loadable (counters within 2⁵³ − 1, complete records).
enum StoredValues {
    /// A counter or id as a column value; beyond ``ValueLimits/maximumCounter`` throws.
    static func counter(_ value: UInt64, _ what: @autoclosure () -> String) throws(StoreError) -> SQLiteValue {
        guard value <= UInt64(ValueLimits.maximumCounter) else {
            throw .invalidChange("\(what()) \(value) is beyond \(ValueLimits.maximumCounter)")
        }
        return .integer(Int64(value))
    }

    /// A stored counter back as `UInt64`.
    static func counter(_ value: Int64, _ what: @autoclosure () -> String) throws(StoreError) -> UInt64 {
        guard let counter = UInt64(exactly: value) else { throw .corruptRecord("\(what()) is negative (\(value))") }
        return counter
    }

    /// A stored app key.
    static func appKey(_ text: String) throws(StoreError) -> AppKey {
        do {
            return try AppKey(parsing: text)
        } catch {
            throw .corruptRecord("app key [\(text)] is not of the form org#app")
        }
    }

    /// `value`, or a refusal naming the missing field.
    static func required<T>(_ value: T?, _ field: String, of owner: @autoclosure () -> String) throws(StoreError) -> T {
        guard let value else { throw .invalidChange("\(owner()) has no \(field) (store complete, exported state)") }
        return value
    }
}

extension SeedUser {
    /// The `users` row of this user in `app`: parameters for ``StoreWriter/upsertUserSQL``.
    func rowValues(app: AppKey) throws(StoreError) -> [SQLiteValue] {
        let owner = "user \(username) of app \(app)"
        let hash: SeedPasswordHash?
        switch password {
        case .plain: throw .invalidChange("\(owner) has a plain-text password (store the hash)")
        case .hashed(let stored): hash = stored
        case nil: hash = nil
        }
        let minimumTokenID = try StoredValues.required(minimumTokenID, "minimumTokenId", of: owner)
        return [
            .text(app.description), .text(username), .text(try StoredValues.required(uuid, "uuid", of: owner)),
            .integer(orNull: hash?.iterations), .blob(orNull: hash?.salt), .blob(orNull: hash?.hash),
            .text(orNull: nickname), .bool(activated),
            .integer(try StoredValues.required(createdMs, "created time", of: owner)),
            .integer(try StoredValues.required(modifiedMs, "modified time", of: owner)),
            .integer(try StoredValues.required(sequence, "sequence", of: owner)),
            try StoredValues.counter(minimumTokenID, "\(owner): minimumTokenId"),
        ]
    }
}

extension AppSettings {
    /// The settings columns of `apps`, in the order of ``StoreWriter/settingsColumns``.
    func rowValues(app: AppKey) -> [SQLiteValue] {
        [
            .text(registrationMode.rawValue), .integer(defaultTokenTTLSeconds), .bool(serviceEnabled),
            .integer(orNull: activeUserLimit), .integer(orNull: restRateLimitPerSecond),
            .text(SeedText.encode(loginPolicy, of: app)),
        ]
    }
}
