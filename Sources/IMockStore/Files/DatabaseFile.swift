#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The database file of a store, before SQLite opens it.
///
/// imock never leaves an empty `imock.sqlite`: a new store is made beside it, in
/// `imock.sqlite.new`, and renamed into place once it holds its schema. So an empty
/// `imock.sqlite` is not imock's doing (a truncation, a copy that failed) and is refused, where
/// SQLite would take it for a new database and the server would write a new store over it.
enum DatabaseFile {
    /// The suffix of the file a new store is made in.
    static let stagingSuffix = ".new"

    /// Why an empty file is refused, and what to do.
    static let emptyReason =
        "it is empty (0 bytes), which imock never leaves behind; restore it, or remove it to start a new store"

    /// Makes `path` ready for a writer that holds the directory's lock: a missing store is made
    /// (``create(_:schemaVersion:)``), an empty file refused. Returns whether it made the store.
    static func prepare(_ path: String, schemaVersion: Int) throws(StoreError) -> Bool {
        guard try !isMissing(path) else {
            try create(path, schemaVersion: schemaVersion)
            return true
        }
        return false
    }

    /// Refuses, for a reader, a store that is missing or empty.
    static func requireExisting(_ path: String) throws(StoreError) {
        guard try !isMissing(path) else { throw .notAStore(path: path, reason: String(cString: strerror(ENOENT))) }
    }

    /// Whether nothing is at `path`; throws ``StoreError/notAStore(path:reason:)`` for an
    /// empty file.
    private static func isMissing(_ path: String) throws(StoreError) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return true }
            throw .directoryUnavailable(path: path, reason: "stat: \(DataDirectory.lastError())")
        }
        if info.st_mode & S_IFMT == S_IFREG, info.st_size == 0 {
            throw .notAStore(path: path, reason: emptyReason)
        }
        return false
    }

    /// Makes a new store at `path` with the schema up to `schemaVersion`: an empty file of mode
    /// 0600 (SQLite would make it 0644, and gives its journal the database's mode) is given the
    /// schema and then renamed to `path`. What a crash leaves of an earlier attempt is removed
    /// first: the caller holds the directory's lock, so no one else is making it.
    private static func create(_ path: String, schemaVersion: Int) throws(StoreError) {
        let staging = path + stagingSuffix
        // A hot journal left beside the file would be rolled back into the new one.
        for leftover in [staging, staging + "-journal", staging + "-wal", staging + "-shm"] { unlink(leftover) }
        let descriptor = open(staging, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .directoryUnavailable(path: staging, reason: "open: \(DataDirectory.lastError())") }
        _ = close(descriptor)
        do throws(StoreError) {
            let database = try SQLiteDatabase(path: staging)
            defer { database.close() }
            try SchemaMigrator.migrate(database, upTo: schemaVersion)
        } catch {
            unlink(staging)
            throw error
        }
        guard rename(staging, path) == 0 else {
            let error = StoreError.directoryUnavailable(path: path, reason: "rename \(staging): \(DataDirectory.lastError())")
            unlink(staging)
            throw error
        }
    }
}
