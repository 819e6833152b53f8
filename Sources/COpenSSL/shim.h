// OpenSSL: hashes, HMAC (JWT), RSA signatures (webhooks) and TLS/DTLS.
#ifndef REVUE_COPENSSL_SHIM_H
#define REVUE_COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

/// BIO_get_mem_data(bio, &pointer) is a macro over BIO_ctrl.
static inline long revue_bio_get_mem_data(BIO *bio, char **data) {
    return BIO_get_mem_data(bio, data);
}
/// SSL_CTX_set_min_proto_version is a macro over SSL_CTX_ctrl.
static inline int revue_ssl_ctx_set_min_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}
/// SSL_set_tlsext_host_name is a macro over SSL_ctrl (SNI).
static inline int revue_ssl_set_tlsext_host_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

#endif
