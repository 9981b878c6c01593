#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The exclusive `flock`s a writable store holds on its data directory: one on the directory
/// itself and one on its lock file, `imock.lock`. The kernel drops them when the process ends,
/// however it ends (SIGKILL included), so a crashed server never leaves a stale lock behind.
///
/// The directory's own lock is what makes the refusal hold when `imock.lock` is deleted under
/// a running server: a new lock file would be a new file, free to lock, but the directory is
/// the same. The lock file is still taken, for an older imock, which locks only that file, and
/// for anyone checking with `flock(1)`. A `flock` belongs to an open file description, so two
/// stores opened in one process exclude each other too.
final class DirectoryLock {
    private var descriptors: [Int32]

    /// Takes the locks of `directory`, or throws ``StoreError/inUse(path:)`` when another open
    /// store (in this or another process) holds either.
    init(directory: String) throws(StoreError) {
        let lockFile = directory + "/" + DataDirectory.lockName
        var descriptors: [Int32] = []
        do throws(StoreError) {
            let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            descriptors.append(try DirectoryLock.lock(directoryDescriptor, openedFrom: directory, of: directory))
            let fileDescriptor = open(lockFile, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            descriptors.append(try DirectoryLock.lock(fileDescriptor, openedFrom: lockFile, of: directory))
        } catch {
            descriptors.forEach(DirectoryLock.closeFile)
            throw error
        }
        self.descriptors = descriptors
    }

    deinit { release() }

    /// Gives the locks up (idempotent).
    func release() {
        descriptors.forEach(DirectoryLock.closeFile)
        descriptors = []
    }

    /// How many times a held lock is tried again, 2 ms apart, before the store is refused.
    static let lockAttempts = 50

    /// Locks `descriptor`, just opened from `path` (-1: the open failed), without waiting.
    private static func lock(_ descriptor: Int32, openedFrom path: String, of directory: String) throws(StoreError) -> Int32 {
        guard descriptor >= 0 else {
            throw .directoryUnavailable(path: directory, reason: "open \(path): \(DataDirectory.lastError())")
        }
        // A lock just released can look held for a moment: a child being spawned by another
        // thread holds a copy of every descriptor until its exec closes them (`O_CLOEXEC`), and
        // a `flock` belongs to the open file description. A holder that stays is refused.
        var attempts = 0
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0, errno == EWOULDBLOCK, attempts < DirectoryLock.lockAttempts {
            attempts += 1
            usleep(2_000)
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let failure = errno
            closeFile(descriptor)
            if failure == EWOULDBLOCK { throw .inUse(path: directory) }
            throw .directoryUnavailable(path: directory, reason: "flock \(path): \(String(cString: strerror(failure)))")
        }
        return descriptor
    }

    private static func closeFile(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }
}
