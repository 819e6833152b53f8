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

// DTLS (Sources/DTLS): the DTLS macros over SSL_ctrl and the SSL_OP_BIT options, which Swift
// cannot import.
/// SSL_OP_NO_QUERY_MTU: the MTU is set by hand (memory BIOs have no path MTU to query).
static inline uint64_t revue_ssl_op_no_query_mtu(void) { return SSL_OP_NO_QUERY_MTU; }
/// SSL_OP_NO_TICKET: no session tickets (every WebRTC connection is a full handshake).
static inline uint64_t revue_ssl_op_no_ticket(void) { return SSL_OP_NO_TICKET; }
/// SSL_OP_NO_RENEGOTIATION: new keys mid-call would never reach SRTP (WebRTC makes a new association instead).
static inline uint64_t revue_ssl_op_no_renegotiation(void) { return SSL_OP_NO_RENEGOTIATION; }
/// SSL_set_mtu: the largest record-carrying datagram OpenSSL may produce.
static inline long revue_ssl_set_mtu(SSL *ssl, long mtu) { return SSL_set_mtu(ssl, mtu); }
/// DTLS_set_link_mtu: the link MTU (the memory BIO adds no overhead).
static inline long revue_dtls_set_link_mtu(SSL *ssl, long mtu) { return DTLS_set_link_mtu(ssl, mtu); }
/// DTLSv1_get_timeout: 1 and the time left while a retransmission timer runs, else 0.
static inline long revue_dtls_get_timeout(SSL *ssl, struct timeval *left) { return DTLSv1_get_timeout(ssl, left); }
/// DTLSv1_handle_timeout: retransmits if the timer expired (1), 0 if not, -1 on failure.
static inline long revue_dtls_handle_timeout(SSL *ssl) { return DTLSv1_handle_timeout(ssl); }

#endif
