// recvmmsg(2) and sendmmsg(2), which the Glibc module does not export: glibc declares them and
// struct mmsghdr only under _GNU_SOURCE, and Swift's Glibc module is built without it. The
// struct below has the kernel's layout (a msghdr, then the unsigned int length); the two
// functions are glibc's own symbols, declared here with it.
#ifndef REVUE_CSOCKETBATCH_SHIM_H
#define REVUE_CSOCKETBATCH_SHIM_H

#include <sys/socket.h>
#include <time.h>

/// struct mmsghdr (recvmmsg(2)).
struct revue_mmsghdr {
    struct msghdr msg_hdr;
    unsigned int msg_len;
};

extern int recvmmsg(int sockfd, struct revue_mmsghdr *msgvec, unsigned int vlen, int flags, struct timespec *timeout);
extern int sendmmsg(int sockfd, struct revue_mmsghdr *msgvec, unsigned int vlen, int flags);

/// recvmmsg(fd, vector, count, flags, NULL).
static inline int revue_recvmmsg(int fd, struct revue_mmsghdr *vector, unsigned int count, int flags) {
    return recvmmsg(fd, vector, count, flags, 0);
}

/// sendmmsg(fd, vector, count, flags).
static inline int revue_sendmmsg(int fd, struct revue_mmsghdr *vector, unsigned int count, int flags) {
    return sendmmsg(fd, vector, count, flags);
}

#endif
