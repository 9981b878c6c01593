#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The data directory of a store: created with its parents when missing, then locked so that
/// two processes never write one store (each would hold its own copy of the state in memory
/// and overwrite the other's).
enum DataDirectory {
    /// The database file's name inside the directory.
    static let databaseName = "imock.sqlite"
    /// The lock file's name inside the directory (held with `flock` while a writer is open).
    static let lockName = "imock.lock"

    /// Creates `path` and its missing parents (mode 0700: the store holds secrets), and
    /// checks that it is a directory.
    static func create(_ path: String) throws(StoreError) {
        guard !path.isEmpty else { throw .directoryUnavailable(path: path, reason: "the path is empty") }
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o700) != 0, errno != EEXIST {
                throw .directoryUnavailable(path: path, reason: "mkdir \(prefix): \(lastError())")
            }
            prefix += "/"
        }
        var info = stat()
        guard stat(path, &info) == 0 else { throw .directoryUnavailable(path: path, reason: lastError()) }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw .directoryUnavailable(path: path, reason: "it exists and is not a directory")
        }
    }

    static func lastError() -> String { String(cString: strerror(errno)) }
}
