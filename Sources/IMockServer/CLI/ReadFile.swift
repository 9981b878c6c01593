#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A file that could not be read.
public struct FileReadError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "cannot read '\(path)': \(reason)" }
}

/// Reads a whole file (seed files are small; 64 MiB at most).
func readFile(_ path: String, limit: Int = 64 << 20) throws(FileReadError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw FileReadError(path: path, reason: String(cString: strerror(errno))) }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            throw FileReadError(path: path, reason: String(cString: strerror(errno)))
        }
        if count == 0 { return bytes }
        bytes += chunk[0..<count]
        guard bytes.count <= limit else { throw FileReadError(path: path, reason: "larger than \(limit) bytes") }
    }
}
