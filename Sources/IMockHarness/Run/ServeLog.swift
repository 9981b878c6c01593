/// What `imock serve` logs that another process reads: the line that says where it listens.
public enum ServeLog {
    /// The port of the `listening address=HOST:PORT` line of a server's log, once it is there.
    public static func listeningPort(in log: String) -> UInt16? {
        guard let line = log.split(separator: "\n").first(where: { $0.contains(" listening address=") }),
            let address = line.split(separator: " ").first(where: { $0.hasPrefix("address=") }),
            let colon = address.lastIndex(of: ":")
        else { return nil }
        return UInt16(address[address.index(after: colon)...])
    }
}
