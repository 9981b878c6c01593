import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's DRBG.
/// Public because it is the default masking-key source of ``WebSocketStateMachine``.
public enum SecureRandom {
    /// `count` random bytes from `RAND_bytes`.
    ///
    /// Should OpenSSL's generator ever fail, the bytes come from the standard library's
    /// `SystemRandomNumberGenerator` (getrandom(2) on Linux), which is also secure.
    public static func bytes(count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        var output = [UInt8](repeating: 0, count: count)
        let status = output.withUnsafeMutableBufferPointer { buffer in
            RAND_bytes(buffer.baseAddress, Int32(clamping: buffer.count))
        }
        if status == 1, count <= Int(Int32.max) { return output }
        var generator = SystemRandomNumberGenerator()
        for index in output.indices { output[index] = generator.next() }
        return output
    }
}
