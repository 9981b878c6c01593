/// The TLS server name (SNI) for a Host header value.
enum TLSServerName {
    /// `example.com:8443` → `example.com`; IP addresses (v4, or v6 in brackets) → nil, since SNI
    /// must not carry an address (RFC 6066 §3).
    static func from(hostHeader: String) -> String? {
        if hostHeader.hasPrefix("[") { return nil }
        let host = hostHeader.split(separator: ":", maxSplits: 1).first.map(String.init) ?? hostHeader
        let isIPv4 = host.split(separator: ".").count == 4 && host.allSatisfy { $0.isNumber || $0 == "." }
        return host.isEmpty || isIPv4 ? nil : host
    }
}
