// OpenSSL's low-level SHA-256 (SHA256_Init/Update/Final on a plain SHA256_CTX), and nothing else.
//
// COpenSSL refuses every deprecated API; these four are let through here on purpose, for one
// use: PBKDF2 and HMAC over a key's inner and outer states computed once. Copying a
// SHA256_CTX is a 112-byte struct copy, where OpenSSL 3.0's EVP_MD_CTX_copy_ex frees and
// allocates a provider context — the allocations made PKCS5_PBKDF2_HMAC 2.3x slower than this
// loop over the same SHA-256 block function (docs/BENCHMARKS.md). Crypto.swift checks the
// result against PKCS5_PBKDF2_HMAC and HMAC in tests.
#ifndef COPENSSL_SHA256_SHIM_H
#define COPENSSL_SHA256_SHIM_H

#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/sha.h>

#endif
