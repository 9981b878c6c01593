import COpenSSL

/// The TLS state of one connection, driven through memory BIOs so that the connection's own
/// non-blocking socket code does all I/O: ciphertext from the socket goes in with
/// `receiveCiphertext`, ciphertext for the socket comes out of `takeOutgoing`. Plaintext
/// written before the handshake finishes is held and sent when it does. Loop-confined.
final class TLSSession {
    enum Role { case server, client }

    private let ssl: OpaquePointer
    private let readBIO: OpaquePointer
    private let writeBIO: OpaquePointer
    private var heldPlaintext: [UInt8] = []
    /// The peer sent close_notify.
    private(set) var peerSentCloseNotify = false

    init(context: TLSContext, role: Role, serverName: String?) {
        // Allocation failures here mean the process is out of memory.
        ssl = SSL_new(context.pointer)!
        readBIO = BIO_new(BIO_s_mem())!
        writeBIO = BIO_new(BIO_s_mem())!
        SSL_set_bio(ssl, readBIO, writeBIO)
        _ = copenssl_set_accept_moving_buffer(ssl)
        switch role {
        case .server:
            SSL_set_accept_state(ssl)
        case .client:
            if let serverName {
                _ = copenssl_set_tlsext_host_name(ssl, serverName)
                // Checked against the certificate when the context verifies peers.
                _ = SSL_set1_host(ssl, serverName)
            }
            context.offerSession(to: ssl)
            SSL_set_connect_state(ssl)
        }
    }

    deinit { SSL_free(ssl) }  // frees both BIOs

    var isHandshakeComplete: Bool { SSL_is_init_finished(ssl) == 1 }

    /// The connection's session: for a client before its handshake, the one it offers (tests
    /// check that each connection gets its own copy of its context's kept session).
    var session: OpaquePointer? { SSL_get_session(ssl) }

    /// Whether the handshake resumed an earlier session instead of a full exchange.
    var isResumed: Bool { SSL_session_reused(ssl) == 1 }

    /// Sends the client hello (client role).
    func startHandshake() {
        _ = SSL_do_handshake(ssl)
        ERR_clear_error()
    }

    /// Feeds ciphertext read from the socket and returns the plaintext it completes; `scratch`
    /// is working space for SSL_read (the loop's shared read buffer).
    func receiveCiphertext(_ bytes: [UInt8], scratch: UnsafeMutableRawBufferPointer) throws(TLSError) -> [UInt8] {
        let written = bytes.withUnsafeBytes { BIO_write(readBIO, $0.baseAddress, Int32($0.count)) }
        guard written == bytes.count else { throw TLSError("BIO_write") }
        var plaintext: [UInt8] = []
        while true {
            // SSL_get_error reads this thread's error queue: it must be empty before each call.
            ERR_clear_error()
            let count = SSL_read(ssl, scratch.baseAddress, Int32(scratch.count))
            if count > 0 {
                plaintext.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<Int(count)]))
                continue
            }
            switch SSL_get_error(ssl, count) {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
                try flushHeldPlaintext()
                return plaintext
            case SSL_ERROR_ZERO_RETURN:
                peerSentCloseNotify = true
                return plaintext
            default:
                throw TLSError("TLS read")
            }
        }
    }

    /// Encrypts plaintext (or holds it until the handshake completes).
    func writePlaintext(_ bytes: [UInt8]) throws(TLSError) {
        heldPlaintext.append(contentsOf: bytes)
        try flushHeldPlaintext()
    }

    private func flushHeldPlaintext() throws(TLSError) {
        guard !heldPlaintext.isEmpty, isHandshakeComplete else { return }
        var offset = 0
        while offset < heldPlaintext.count {
            ERR_clear_error()
            let count = heldPlaintext.withUnsafeBytes {
                SSL_write(ssl, $0.baseAddress! + offset, Int32($0.count - offset))
            }
            guard count > 0 else {
                let code = SSL_get_error(ssl, count)
                if code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE { break }
                throw TLSError("TLS write")
            }
            offset += Int(count)
        }
        heldPlaintext.removeFirst(offset)
    }

    /// Sends close_notify.
    func shutdown() {
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
    }

    /// Ciphertext waiting for the socket.
    func takeOutgoing() -> [UInt8] {
        let pending = Int(BIO_ctrl_pending(writeBIO))
        guard pending > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: pending)
        let count = bytes.withUnsafeMutableBytes { BIO_read(writeBIO, $0.baseAddress, Int32($0.count)) }
        return count > 0 ? Array(bytes[0..<Int(count)]) : []
    }
}
