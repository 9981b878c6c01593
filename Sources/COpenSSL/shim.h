// OpenSSL 3 for Swift. Deprecated APIs are compile errors here on purpose.
#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

#define OPENSSL_API_COMPAT 30000
#define OPENSSL_NO_DEPRECATED 1

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/bio.h>
#include <openssl/x509.h>
#include <openssl/pem.h>

/// SSL_CTX_set_mode and friends are macros; these wrappers make them callable from Swift.
static inline long copenssl_ctx_set_min_tls12(SSL_CTX *ctx) {
    return SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
}

/// A client that offers TLS 1.2 at most (an older device's stack).
static inline long copenssl_ctx_set_max_tls12(SSL_CTX *ctx) {
    return SSL_CTX_set_max_proto_version(ctx, TLS1_2_VERSION);
}

/// TLS 1.3 suites in the server's order of preference, chosen over the client's.
static inline int copenssl_ctx_prefer_server_ciphers(SSL_CTX *ctx, const char *suites) {
    SSL_CTX_set_options(ctx, SSL_OP_CIPHER_SERVER_PREFERENCE);
    return SSL_CTX_set_ciphersuites(ctx, suites);
}

static inline long copenssl_set_accept_moving_buffer(SSL *ssl) {
    return SSL_set_mode(ssl, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_ENABLE_PARTIAL_WRITE);
}

static inline long copenssl_set_tlsext_host_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}

/// A client context that keeps the sessions its servers give (TLS 1.3 tickets) for the
/// application to offer again (`SSL_set_session`), in no cache of OpenSSL's own.
static inline long copenssl_ctx_set_client_session_cache(SSL_CTX *ctx) {
    return SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
}

#endif
