// libsrtp2: SRTP and SRTCP protection for the room server's media path (RFC 3711).
#ifndef REVUE_CSRTP_SHIM_H
#define REVUE_CSRTP_SHIM_H

#include <srtp2/srtp.h>

/// SRTP_MAX_TRAILER_LEN: the bytes protect() may add after a packet.
static inline int revue_srtp_max_trailer_len(void) { return SRTP_MAX_TRAILER_LEN; }

#endif
