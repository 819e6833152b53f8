// libusrsctp: SCTP (RFC 9260) in user space, for WebRTC data channels over DTLS (RFC 8261).
// Revue uses AF_CONN sockets only: packets go out through one output callback and come in
// through usrsctp_conninput, so the library never opens a socket of its own.
#ifndef REVUE_CUSRSCTP_SHIM_H
#define REVUE_CUSRSCTP_SHIM_H

// Declares usrsctp_sysctl_set_sctp_debug_on, which Debian's build exports.
#ifndef SCTP_DEBUG
#define SCTP_DEBUG 1
#endif

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <usrsctp.h>

/// Where usrsctp's printf-style output goes, one formatted line at a time. Swift cannot write a
/// variadic C function, so the shim formats and hands Swift a plain string.
typedef void (*revue_usrsctp_log_sink)(const char *line);

/// The sink, set once by revue_usrsctp_init_nothreads before usrsctp can call the printer. It is
/// static, so each translation unit has its own copy: the printer and the setter below are in
/// the same one, which is all that matters.
static revue_usrsctp_log_sink revue_usrsctp_sink = NULL;

static void revue_usrsctp_debug_printf(const char *format, ...) {
    revue_usrsctp_log_sink sink = revue_usrsctp_sink;
    if (sink == NULL || format == NULL) {
        return;
    }
    char line[1024];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(line, sizeof line, format, arguments);
    va_end(arguments);
    sink(line);
}

/// The AF_CONN output callback's type: usrsctp calls it with each SCTP packet to send.
typedef int (*revue_usrsctp_output)(void *address, void *buffer, size_t length, uint8_t tos, uint8_t set_df);

/// usrsctp_init_nothreads (no timer thread: the caller drives timers with
/// usrsctp_handle_timers) with a non-variadic log sink in place of the printf callback.
/// UDP encapsulation port 0: no UDP socket is opened.
static inline void revue_usrsctp_init_nothreads(revue_usrsctp_output output, revue_usrsctp_log_sink sink) {
    revue_usrsctp_sink = sink;
    usrsctp_init_nothreads(0, output, sink != NULL ? revue_usrsctp_debug_printf : NULL);
}

/// Requests an outgoing stream reset (RFC 6525 §4.1) of `count` streams: struct
/// sctp_reset_streams ends in a flexible array, which Swift cannot build. Returns 0, or -errno.
static inline int revue_usrsctp_reset_outgoing_streams(struct socket *socket, const uint16_t *streams, uint16_t count) {
    size_t size = sizeof(struct sctp_reset_streams) + (size_t)count * sizeof(uint16_t);
    struct sctp_reset_streams *request = calloc(1, size);
    if (request == NULL) {
        return -ENOMEM;
    }
    // A one-to-one socket has one association; usrsctp ignores the id for it.
    request->srs_assoc_id = 0;
    request->srs_flags = SCTP_STREAM_RESET_OUTGOING;
    request->srs_number_streams = count;
    if (count > 0) {
        memcpy(request->srs_stream_list, streams, (size_t)count * sizeof(uint16_t));
    }
    int result = usrsctp_setsockopt(socket, IPPROTO_SCTP, SCTP_RESET_STREAMS, request, (socklen_t)size);
    int saved = errno;
    free(request);
    return result < 0 ? -saved : 0;
}

/// This thread's errno, for the calls that report failure through it.
static inline int revue_usrsctp_errno(void) { return errno; }

#endif
