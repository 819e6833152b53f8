// epoll(7) and eventfd(2), which Swift's Glibc module does not export.
#ifndef REVUE_CEPOLL_SHIM_H
#define REVUE_CEPOLL_SHIM_H

#include <asm/unistd.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

/// epoll_ctl(ADD/MOD/DEL) for a descriptor whose events carry the descriptor itself. struct
/// epoll_event is packed on x86-64, so Swift never builds one.
static inline int revue_epoll_control(int epoll, int operation, int descriptor, uint32_t events) {
    struct epoll_event event = {0};
    event.events = events;
    event.data.fd = descriptor;
    return epoll_ctl(epoll, operation, descriptor, &event);
}

/// epoll_wait into two plain arrays (descriptors and their events), at most 256 at a time.
static inline int revue_epoll_wait(int epoll, int *descriptors, uint32_t *events, int capacity, int timeoutMilliseconds) {
    struct epoll_event ready[256];
    if (capacity > 256) capacity = 256;
    int count = epoll_wait(epoll, ready, capacity, timeoutMilliseconds);
    for (int index = 0; index < count; index++) {
        descriptors[index] = ready[index].data.fd;
        events[index] = ready[index].events;
    }
    return count;
}

/// glibc's syscall(2), declared here rather than through <unistd.h>: a system header this module
/// includes becomes part of it, and Swift then looks for its names (MSG_NOSIGNAL, say) in CEpoll
/// rather than in Glibc, so files that import only Foundation stop finding them.
extern long syscall(long number, ...);

/// accept4(2) with the caller's flags (SOCK_NONBLOCK | SOCK_CLOEXEC from Swift's Glibc): an
/// accepted socket is never inherited by a job's process, not even one spawned between the accept
/// and a later fcntl. Through syscall(2) because glibc declares accept4 only under _GNU_SOURCE,
/// which this module must not define, and with untyped addresses for the reason above.
static inline int revue_accept4(int listener, void *address, unsigned int *length, int flags) {
    return (int)syscall(__NR_accept4, listener, address, length, flags);
}

#endif
