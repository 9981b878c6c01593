#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The resident memory and open descriptors of a process, read from Linux's `/proc`: this
/// process, or another one the user may inspect (`imock soak` samples a server with it).
public struct ProcessProbe: Sendable, Equatable {
    /// The process; nil is this one (`/proc/self`).
    public let pid: Int32?

    /// A probe of process `pid`, or of this process.
    public init(pid: Int32? = nil) { self.pid = pid }

    private var directory: String { "/proc/" + (pid.map { String($0) } ?? "self") }

    /// Resident set size in bytes (`statm`'s second field times the page size); nil when the
    /// process is gone or cannot be read.
    public func residentBytes() -> Int? {
        guard let bytes = try? Files.read(directory + "/statm", limit: 4096) else { return nil }
        let fields = String(decoding: bytes, as: UTF8.self).split(separator: " ")
        guard fields.count >= 2, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Open file descriptors (entries of `fd/`); nil when they cannot be listed. For this
    /// process the count includes the descriptor of the listing itself.
    public func openDescriptors() -> Int? {
        Files.entries(of: directory + "/fd")?.count
    }

    /// The process listening on TCP `port` on this machine, found through `/proc/net/tcp{,6}`
    /// (the listening socket's inode) and the `fd/` links of every process this user may read;
    /// nil when there is none or it belongs to another user.
    public static func listeningProcess(port: UInt16) -> Int32? {
        var inodes: Set<String> = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let bytes = try? Files.read(table, limit: 64 << 20) else { continue }
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n").dropFirst() {
                // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …
                let fields = line.split(separator: " ")
                guard fields.count >= 10, fields[3] == "0A",
                    let colon = fields[1].lastIndex(of: ":"),
                    UInt16(fields[1][fields[1].index(after: colon)...], radix: 16) == port
                else { continue }
                inodes.insert("socket:[\(fields[9])]")
            }
        }
        guard !inodes.isEmpty, let processes = Files.entries(of: "/proc") else { return nil }
        for name in processes {
            guard let pid = Int32(name), let descriptors = Files.entries(of: "/proc/\(name)/fd") else { continue }
            for descriptor in descriptors {
                if let target = Files.linkTarget("/proc/\(name)/fd/\(descriptor)"), inodes.contains(target) { return pid }
            }
        }
        return nil
    }
}
