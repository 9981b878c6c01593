#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A file operation that failed: the path and the system's reason.
public struct FileError: Error, Sendable, CustomStringConvertible {
    /// The file or directory.
    public var path: String
    /// Why, usually `strerror(errno)`.
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// An error for `path` from the current `errno`.
    static func errno(_ path: String, _ verb: String) -> FileError {
        FileError(path: path, reason: "cannot \(verb): \(String(cString: strerror(Glibc.errno)))")
    }

    public var description: String { "\(path): \(reason)" }
}

/// What a path names.
public enum FileKind: Sendable, Equatable {
    case file
    case directory
    case other
}

/// The few file-system operations imock needs, on POSIX calls (imock does not link Foundation:
/// the binary stays small and free of ICU data).
public enum Files {
    /// Reads a whole file, refusing one larger than `limit` bytes.
    public static func read(_ path: String, limit: Int = 64 << 20) throws(FileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .errno(path, "read") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if Glibc.errno == EINTR { continue }
                throw .errno(path, "read")
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            guard bytes.count <= limit else { throw FileError(path: path, reason: "larger than \(limit) bytes") }
        }
    }

    /// Replaces `path` with `bytes` atomically: written to a temporary file beside it, flushed,
    /// then renamed over it, so a reader sees the old or the new content, never a part.
    public static func writeAtomically(_ path: String, _ bytes: [UInt8]) throws(FileError) {
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .errno(temporary, "create") }
        let written = writeAll(fd, bytes) && fsync(fd) == 0
        close(fd)
        guard written else {
            let error = FileError.errno(temporary, "write")
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = FileError.errno(path, "replace")
            unlink(temporary)
            throw error
        }
    }

    /// Removes a file; a missing one is fine.
    public static func remove(_ path: String) throws(FileError) {
        guard unlink(path) == 0 || Glibc.errno == ENOENT else { throw .errno(path, "remove") }
    }

    /// Removes `path` and, for a directory, everything below it (symbolic links are removed,
    /// not followed); a missing one is fine.
    public static func removeTree(_ path: String) throws(FileError) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if Glibc.errno == ENOENT { return }
            throw .errno(path, "remove")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { return try remove(path) }
        for name in entries(of: path) ?? [] { try removeTree(path + "/" + name) }
        guard rmdir(path) == 0 || Glibc.errno == ENOENT else { throw .errno(path, "remove the directory") }
    }

    /// The directory for temporary files: `TMPDIR`, else `/tmp`.
    public static var temporaryDirectory: String {
        let given = getenv("TMPDIR").map { String(cString: $0) } ?? ""
        return given.isEmpty ? "/tmp" : (given.hasSuffix("/") ? String(given.dropLast()) : given)
    }

    /// Creates a new directory of its own under ``temporaryDirectory``, named `prefix` and six
    /// random characters (`mkdtemp`); returns its path.
    public static func makeTemporaryDirectory(prefix: String) throws(FileError) -> String {
        let pattern = temporaryDirectory + "/" + prefix + "XXXXXX"
        var template = Array(pattern.utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw .errno(pattern, "create the directory")
        }
        return String(cString: made)
    }

    /// Creates `path` and its missing parents (like `mkdir -p`).
    public static func makeDirectories(_ path: String) throws(FileError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0, Glibc.errno != EEXIST { throw .errno(prefix, "create the directory") }
            guard kind(prefix) == .directory else { throw FileError(path: prefix, reason: "not a directory") }
            prefix += "/"
        }
    }

    /// What `path` names, nil when nothing (symbolic links followed).
    public static func kind(_ path: String) -> FileKind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// The name of a directory entry `readdir` returned, read in place up to its NUL: an entry is
    /// only as long as its name, so copying the whole 256-byte `d_name` can read past the end of
    /// readdir's buffer (and crash when that is the end of a mapping).
    public static func name(of entry: UnsafeMutablePointer<dirent>) -> String {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return String(cString: UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: CChar.self))
    }

    /// The regular files below `directory`, as paths relative to it, sorted; hidden entries
    /// (names starting with `.`) are skipped.
    public static func filesBelow(_ directory: String) throws(FileError) -> [String] {
        var found: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let full = relative.isEmpty ? directory : directory + "/" + relative
            guard let handle = opendir(full) else { throw .errno(full, "list") }
            defer { closedir(handle) }
            while let entry = readdir(handle) {
                let name = Files.name(of: entry)
                guard !name.hasPrefix(".") else { continue }
                let path = relative.isEmpty ? name : relative + "/" + name
                switch kind(directory + "/" + path) {
                case .directory: pending.append(path)
                case .file: found.append(path)
                case .other, nil: continue
                }
            }
        }
        return found.sorted()
    }

    /// The names in `directory` (any kind, `.` and `..` left out), sorted; nil when it cannot
    /// be listed.
    public static func entries(of directory: String) -> [String]? {
        guard let handle = opendir(directory) else { return nil }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = name(of: entry)
            if name != ".", name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// The target of symbolic link `path`, or nil.
    public static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBufferPointer { readlink(path, $0.baseAddress!, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Writes to standard error.
public enum StandardError {
    /// Writes `message` and a line break to standard error.
    public static func write(_ message: String) {
        writeAll(2, Array((message + "\n").utf8))
    }
}
