// glibc and Linux calls the Glibc module does not export, or that are variadic or macros.
#ifndef REVUE_CLINUX_SHIM_H
#define REVUE_CLINUX_SHIM_H

#include <fcntl.h>
#include <malloc.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>

/// mallopt(M_MMAP_THRESHOLD, bytes).
static inline int revue_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
/// mallopt(M_ARENA_MAX, count).
static inline int revue_set_arena_max(int count) { return mallopt(M_ARENA_MAX, count); }
/// malloc_trim(0): hands the allocator's free pages back to the kernel.
static inline int revue_malloc_trim(void) { return malloc_trim(0); }
/// mallopt(M_TRIM_THRESHOLD, bytes).
static inline int revue_set_trim_threshold(int bytes) { return mallopt(M_TRIM_THRESHOLD, bytes); }
/// prctl(PR_SET_THP_DISABLE, 1): no transparent huge pages for this process (and its children).
static inline int revue_disable_transparent_huge_pages(void) { return prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0); }
/// prctl(PR_SET_PDEATHSIG, signal): the kernel sends `signal` to this process when its parent dies.
static inline int revue_set_parent_death_signal(int signal) { return prctl(PR_SET_PDEATHSIG, signal, 0, 0, 0); }

// recvmmsg, sendmmsg and eventfd are declared by glibc only under _GNU_SOURCE, which a Clang
// module cannot turn on without clashing with Swift's Glibc module; they are declared here under
// other names (asm labels bind them to glibc's symbols).
struct revue_mmsghdr { struct msghdr msg_hdr; unsigned int msg_len; };
int revue_recvmmsg_(int, struct revue_mmsghdr *, unsigned int, int, struct timespec *) __asm__("recvmmsg");
int revue_sendmmsg_(int, struct revue_mmsghdr *, unsigned int, int) __asm__("sendmmsg");
int revue_eventfd_(unsigned int, int) __asm__("eventfd");
int revue_pipe2_(int descriptors[2], int flags) __asm__("pipe2");

/// A close-on-exec pipe (pipe2(2)): no child started by another thread meanwhile inherits it.
static inline int revue_pipe_cloexec(int descriptors[2]) { return revue_pipe2_(descriptors, O_CLOEXEC); }
/// A connected pair of close-on-exec Unix stream sockets (socketpair(2)).
static inline int revue_socketpair_cloexec(int descriptors[2]) { return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, descriptors); }

/// The most datagrams one batch call moves.
#define REVUE_BATCH_MAX 64

/// A non-blocking, close-on-exec eventfd (eventfd(2)): a counter other threads write to wake a loop.
static inline int revue_eventfd(void) { return revue_eventfd_(0, O_NONBLOCK | O_CLOEXEC); }

/// Receives up to `count` datagrams at once (recvmmsg(2), non-blocking) into `buffers`, `size`
/// bytes apart; `lengths[i]` and `sources[i]` say what each is. Returns how many, or -1 (errno).
static inline int revue_recv_batch(int fd, unsigned char *buffers, int size, int count, int *lengths,
                                   struct sockaddr_storage *sources) {
    struct revue_mmsghdr messages[REVUE_BATCH_MAX];
    struct iovec vectors[REVUE_BATCH_MAX];
    if (count > REVUE_BATCH_MAX) count = REVUE_BATCH_MAX;
    memset(messages, 0, sizeof(messages));
    for (int i = 0; i < count; i++) {
        vectors[i].iov_base = buffers + (long)i * size;
        vectors[i].iov_len = (size_t)size;
        messages[i].msg_hdr.msg_name = &sources[i];
        messages[i].msg_hdr.msg_namelen = sizeof(struct sockaddr_storage);
        messages[i].msg_hdr.msg_iov = &vectors[i];
        messages[i].msg_hdr.msg_iovlen = 1;
    }
    int received = revue_recvmmsg_(fd, messages, (unsigned int)count, MSG_DONTWAIT, 0);
    for (int i = 0; i < received; i++) lengths[i] = (int)messages[i].msg_len;
    return received;
}

/// Sends `count` datagrams at once (sendmmsg(2), non-blocking): datagram i is `lengths[i]` bytes
/// at `buffers + offsets[i]`, to `destinations[i]` (`destinationLengths[i]` bytes). Returns how
/// many were sent, or -1 (errno).
static inline int revue_send_batch(int fd, const unsigned char *buffers, const int *offsets, const int *lengths,
                                   const struct sockaddr_storage *destinations, const unsigned int *destinationLengths,
                                   int count) {
    struct revue_mmsghdr messages[REVUE_BATCH_MAX];
    struct iovec vectors[REVUE_BATCH_MAX];
    if (count > REVUE_BATCH_MAX) count = REVUE_BATCH_MAX;
    memset(messages, 0, sizeof(messages));
    for (int i = 0; i < count; i++) {
        vectors[i].iov_base = (void *)(buffers + offsets[i]);
        vectors[i].iov_len = (size_t)lengths[i];
        messages[i].msg_hdr.msg_name = (void *)&destinations[i];
        messages[i].msg_hdr.msg_namelen = destinationLengths[i];
        messages[i].msg_hdr.msg_iov = &vectors[i];
        messages[i].msg_hdr.msg_iovlen = 1;
    }
    return revue_sendmmsg_(fd, messages, (unsigned int)count, MSG_DONTWAIT);
}

#endif
