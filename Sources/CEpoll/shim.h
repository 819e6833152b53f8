// epoll(7) and eventfd(2), which Swift's Glibc module does not export.
#ifndef REVUE_CEPOLL_SHIM_H
#define REVUE_CEPOLL_SHIM_H

#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

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

/// accept4(2) with SOCK_NONBLOCK and SOCK_CLOEXEC: an accepted socket is never inherited by a
/// job's process, not even one spawned between the accept and a later fcntl. Through syscall(2):
/// glibc declares accept4 only under _GNU_SOURCE, which this module must not define (Swift's
/// Glibc module sees the system headers without it, and the two would disagree).
static inline int revue_accept_nonblocking(int listener, struct sockaddr *address, socklen_t *length) {
    return (int)syscall(SYS_accept4, listener, address, length, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

#endif
