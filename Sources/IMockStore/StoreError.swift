/// Every way the store can fail. A failed ``PersistentStore/apply(_:)`` leaves the database
/// exactly as it was before the call (its transaction is rolled back).
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The data directory cannot be created or used (a path component is a file, no permission …).
    case directoryUnavailable(path: String, reason: String)
    /// Another process (another `imock serve --data`) holds the directory's lock file.
    case inUse(path: String)
    /// The file is not a SQLite database, or a SQLite database that imock did not write.
    case notAStore(path: String, reason: String)
    /// The database was written by a newer imock whose schema this build does not know.
    case newerSchema(path: String, found: Int, supported: Int)
    /// SQLite refused an operation: its result code and message, and what was being done.
    case sqlite(code: Int32, message: String, operation: String)
    /// A stored row cannot be turned back into domain state (a NULL where a value belongs, a
    /// value that breaks the seed rules …).
    case corruptRecord(String)
    /// A change cannot be stored as given (a user without a uuid, a plain-text password, a
    /// counter beyond 2⁵³ − 1, an update of an app the store does not hold …).
    case invalidChange(String)
    /// The database file is damaged: what SQLite's integrity check (or a read that stopped on
    /// a damaged page) found, one entry per problem.
    case integrityCheckFailed(path: String, problems: [String])
    /// The store was closed, or opened read-only and asked to write.
    case unavailable(String)

    /// One line, whatever the texts inside hold (refusals at start-up are one line on standard
    /// error, docs/PERSISTENCE.md): SQL statements, SQLite's integrity findings and nested
    /// errors can span lines, so each line break and the blanks around it become one space.
    public var description: String {
        let text = switch self {
        case .directoryUnavailable(let path, let reason): "cannot use data directory \(path): \(reason)"
        case .inUse(let path): "data directory \(path) is in use by another imock process (its lock is held)"
        case .notAStore(let path, let reason): "\(path) is not an imock store: \(reason)"
        case .newerSchema(let path, let found, let supported):
            "\(path) has schema version \(found), written by a newer imock; this build reads versions up to \(supported)"
        case .sqlite(let code, let message, let operation): "SQLite error \(code) (\(message)) while \(operation)"
        case .corruptRecord(let what): "stored data is damaged: \(what)"
        case .invalidChange(let what): "change refused: \(what)"
        case .integrityCheckFailed(let path, let problems):
            "\(path) is damaged: \(problems.prefix(3).joined(separator: "; "))"
                + (problems.count > 3 ? " (and \(problems.count - 3) more problems)" : "")
        case .unavailable(let why): "the store is unavailable: \(why)"
        }
        return StoreError.joiningLines(text)
    }

    private static func joiningLines(_ text: String) -> String {
        guard text.contains(where: \.isNewline) else { return text }
        var result = ""
        var afterBreak = false
        for character in text {
            if character.isNewline {
                while result.last?.isWhitespace == true { result.removeLast() }
                afterBreak = true
            } else if !(afterBreak && character.isWhitespace) {
                if afterBreak, !result.isEmpty { result.append(" ") }
                afterBreak = false
                result.append(character)
            }
        }
        return result
    }
}
