import COpenSSL
import Synchronization

/// A TLS failure: what imock was doing and OpenSSL's error queue as text.
public struct TLSError: Error, Sendable, CustomStringConvertible {
    public var operation: String
    public var detail: String

    init(_ operation: String) {
        self.operation = operation
        self.detail = TLSError.drainErrorQueue()
    }

    public var description: String { detail.isEmpty ? operation : "\(operation): \(detail)" }

    /// Reads and clears OpenSSL's per-thread error queue.
    static func drainErrorQueue() -> String {
        var messages: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages.joined(separator: "; ")
    }
}

/// OpenSSL settings shared by many TLS connections: a server certificate and key, or a
/// client's verification policy. TLS 1.2 is the minimum.
public final class TLSContext: @unchecked Sendable {
    // SSL_CTX is internally reference-counted and thread-safe once configured.
    let pointer: OpaquePointer

    /// A server context from PEM files: `certificatePath` may hold a chain.
    public init(serverCertificatePath certificatePath: String, privateKeyPath: String) throws(TLSError) {
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw TLSError("SSL_CTX_new") }
        pointer = context
        _ = copenssl_ctx_set_min_tls12(context)
        guard SSL_CTX_use_certificate_chain_file(context, certificatePath) == 1 else {
            throw TLSError("cannot load certificate '\(certificatePath)'")
        }
        guard SSL_CTX_use_PrivateKey_file(context, privateKeyPath, SSL_FILETYPE_PEM) == 1 else {
            throw TLSError("cannot load private key '\(privateKeyPath)'")
        }
        guard SSL_CTX_check_private_key(context) == 1 else {
            throw TLSError("private key '\(privateKeyPath)' does not match the certificate")
        }
        // What a handshake costs, for a server that takes thousands at once (docs/BENCHMARKS.md):
        // TLS 1.3's mandatory AES-128-GCM-SHA256 first, whose key schedule hashes with SHA-256
        // (in hardware on current x86 and ARM) where OpenSSL's default, AES-256-GCM-SHA384, runs
        // SHA-384 in software; and one session ticket per connection instead of OpenSSL's two.
        guard copenssl_ctx_prefer_server_ciphers(context, TLSContext.serverSuites) == 1 else {
            throw TLSError("SSL_CTX_set_ciphersuites")
        }
        _ = SSL_CTX_set_num_tickets(context, 1)
    }

    /// The TLS 1.3 suites a server offers, in its order of preference.
    static let serverSuites = "TLS_AES_128_GCM_SHA256:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_256_GCM_SHA384"

    /// A client context. With `trustedCertificatesPath` the server's certificate must chain to
    /// it; with nil nothing is verified (for a local mock server with a self-signed certificate).
    /// With `resumesSessions` it keeps the last session a server gave it (a TLS 1.3 ticket) and
    /// offers it on its next connections, which then skip the certificate and its signature when
    /// the server accepts it (the key exchange stays: `psk_dhe_ke`): one context per server, as a
    /// device that reconnects keeps its ticket. `highestVersion` `.tls12` makes a client of an
    /// older stack: its resumed handshakes (a TLS 1.2 ticket) have no key exchange at all.
    public init(
        clientTrusting trustedCertificatesPath: String?, resumesSessions: Bool = false,
        highestVersion: TLSVersion = .tls13
    ) throws(TLSError) {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw TLSError("SSL_CTX_new") }
        pointer = context
        _ = copenssl_ctx_set_min_tls12(context)
        if highestVersion == .tls12 { _ = copenssl_ctx_set_max_tls12(context) }
        if resumesSessions {
            _ = copenssl_ctx_set_client_session_cache(context)
            SSL_CTX_set_ex_data(context, 0, Unmanaged.passUnretained(self).toOpaque())
            SSL_CTX_sess_set_new_cb(context) { ssl, session in
                // A copy: OpenSSL marks the connection's own session not resumable when the
                // connection ends without a close_notify, as a dropped device's does.
                guard let ssl, let session, let owner = SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), 0),
                    let copy = SSL_SESSION_dup(session)
                else { return 0 }
                Unmanaged<TLSContext>.fromOpaque(owner).takeUnretainedValue().keep(copy)
                return 0  // the connection keeps its own reference
            }
        }
        if let trustedCertificatesPath {
            guard SSL_CTX_load_verify_locations(context, trustedCertificatesPath, nil) == 1 else {
                throw TLSError("cannot load trusted certificates '\(trustedCertificatesPath)'")
            }
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        } else {
            SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
        }
    }

    /// An `SSL_SESSION` this context owns (reference-counted and thread-safe in OpenSSL).
    private struct KeptSession: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// The last session a server gave this client context (resumesSessions).
    private let resumable = Mutex<KeptSession?>(nil)

    private func keep(_ session: OpaquePointer) {
        let old = resumable.withLock { kept in
            defer { kept = KeptSession(pointer: session) }
            return kept
        }
        if let old { SSL_SESSION_free(old.pointer) }
    }

    /// Offers a copy of the kept session, if any, on a new client connection.
    ///
    /// A copy, not the kept session itself: a TLS 1.3 client handshake that resumes ends by
    /// removing its session from the client cache, which marks that session object not
    /// resumable (`tls_finish_handshake`: "we encourage applications to only use TLSv1.3
    /// tickets once"), as a connection dropped without a close_notify does. Offered as is, the
    /// kept session was spoiled by the first connection to resume with it, and every connection
    /// that started before the next ticket arrived did a full handshake: 2–9 % of a reconnect
    /// storm (`bench login-storm`, part `tls-resume`).
    func offerSession(to ssl: OpaquePointer) {
        guard let copy = resumable.withLock({ kept in kept.flatMap { SSL_SESSION_dup($0.pointer) } }) else { return }
        _ = SSL_set_session(ssl, copy)  // takes its own reference
        SSL_SESSION_free(copy)
    }

    deinit {
        if let kept = resumable.withLock({ $0 }) { SSL_SESSION_free(kept.pointer) }
        SSL_CTX_free(pointer)
    }
}

/// A TLS protocol version a client may offer at most.
public enum TLSVersion: Sendable, Equatable {
    /// TLS 1.2.
    case tls12
    /// TLS 1.3 (the default).
    case tls13
}
