// libsrtp2: SRTP and SRTCP protection for the room server's media path (RFC 3711).
#ifndef REVUE_CSRTP_SHIM_H
#define REVUE_CSRTP_SHIM_H

#include <srtp2/srtp.h>

/// SRTP_MAX_TRAILER_LEN: the bytes protect() may add after a packet.
static inline int revue_srtp_max_trailer_len(void) { return SRTP_MAX_TRAILER_LEN; }
/// The SRTP_AES128_CM_HMAC_SHA1_80 crypto policy (a macro over srtp_crypto_policy_set_rtp_default).
static inline void revue_srtp_policy_aes_cm_128_hmac_sha1_80(srtp_crypto_policy_t *policy) {
    srtp_crypto_policy_set_aes_cm_128_hmac_sha1_80(policy);
}
/// The SRTP_AEAD_AES_128_GCM crypto policy (RFC 7714: 16-byte tag).
static inline void revue_srtp_policy_aead_aes_128_gcm(srtp_crypto_policy_t *policy) {
    srtp_crypto_policy_set_aes_gcm_128_16_auth(policy);
}

#endif
