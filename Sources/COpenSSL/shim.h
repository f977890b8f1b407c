#ifndef UNDERSTUDY_COPENSSL_SHIM_H
#define UNDERSTUDY_COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

// OpenSSL macros Swift cannot import, as functions. Nothing here defines an OpenSSL symbol.

/// A new ECDSA P-256 key (EVP_EC_gen is a macro over a variadic function).
static inline EVP_PKEY *understudy_generate_p256_key(void) {
    return EVP_EC_gen("P-256");
}

/// The SNI name a client sends (SSL_set_tlsext_host_name is a macro over SSL_ctrl).
static inline int understudy_ssl_set_server_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

/// TLS 1.2 at least (SSL_CTX_set_min_proto_version is a macro over SSL_CTX_ctrl).
static inline int understudy_ssl_ctx_require_tls12(SSL_CTX *context) {
    return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}

/// Frees each connection's idle read and write buffers (SSL_CTX_set_mode is a macro over SSL_CTX_ctrl).
static inline void understudy_ssl_ctx_release_buffers(SSL_CTX *context) {
    SSL_CTX_set_mode(context, SSL_MODE_RELEASE_BUFFERS);
}

/// Calls `callback` with `argument` once a ClientHello's SNI name is read (SSL_CTX_set_tlsext_servername_callback
/// and its _arg are macros over SSL_CTX_callback_ctrl and SSL_CTX_ctrl).
static inline void understudy_ssl_ctx_set_server_name_callback(SSL_CTX *context, int (*callback)(SSL *, int *, void *),
                                                               void *argument) {
    SSL_CTX_set_tlsext_servername_callback(context, callback);
    SSL_CTX_set_tlsext_servername_arg(context, argument);
}

/// The bytes a memory BIO holds (BIO_get_mem_data is a macro over BIO_ctrl).
static inline long understudy_bio_memory(BIO *bio, char **bytes) {
    return BIO_get_mem_data(bio, bytes);
}

#endif
