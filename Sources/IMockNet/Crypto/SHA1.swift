import COpenSSL

/// SHA-1 over OpenSSL's one-shot EVP digest.
///
/// SHA-1 is only used where a protocol demands it (the WebSocket accept key); it is
/// not a security primitive here.
enum SHA1 {
    /// The length of a SHA-1 digest in bytes.
    static let digestLength = 20

    /// The 20-byte SHA-1 digest of `bytes`.
    static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let input = Array(bytes)
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let status = input.withUnsafeBytes { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                EVP_Digest(
                    inputBuffer.baseAddress, inputBuffer.count, outputBuffer.baseAddress, &length,
                    EVP_sha1(), nil)
            }
        }
        // EVP_Digest with the built-in SHA-1 only fails on allocation failure; the
        // zero digest it would leave can never match a peer's value.
        guard status == 1 else { return [UInt8](repeating: 0, count: digestLength) }
        return Array(output.prefix(Int(length)))
    }
}
